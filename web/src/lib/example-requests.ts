/**
 * Example requests for a sheet's endpoint, as a person would paste them: one for curl, one for
 * `fetch`. Secrets are never filled in: a sheet that needs a key shows where the key goes.
 */

export interface ExampleRequest {
  method: 'GET' | 'POST';
  url: string;
  /** The row to send with POST. */
  body?: Record<string, unknown>;
  /** Whether the sheet needs an API key for this request. */
  needsKey: boolean;
}

const keyPlaceholder = '$SHEETPORT_KEY';

/** Quotes text for a POSIX shell: single quotes, with each `'` closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlExample(request: ExampleRequest): string {
  const lines = [
    `curl -s${request.method === 'GET' ? '' : ` -X ${request.method}`} ${shellQuote(request.url)}`,
  ];
  // Double quotes, so the shell fills in the key from the environment.
  if (request.needsKey) lines.push(`-H "Authorization: Bearer ${keyPlaceholder}"`);
  if (request.body !== undefined) {
    lines.push(`-H 'content-type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(request.body))}`);
  }
  return lines.join(' \\\n  ');
}

export function fetchExample(request: ExampleRequest): string {
  const headers: string[] = [];
  if (request.needsKey) headers.push(`authorization: 'Bearer ' + key`);
  if (request.body !== undefined) headers.push(`'content-type': 'application/json'`);
  const options: string[] = [];
  if (request.method !== 'GET') options.push(`method: '${request.method}'`);
  if (headers.length > 0) options.push(`headers: { ${headers.join(', ')} }`);
  if (request.body !== undefined)
    options.push(`body: JSON.stringify(${JSON.stringify(request.body)})`);
  const call =
    options.length === 0
      ? `fetch(${JSON.stringify(request.url)})`
      : `fetch(${JSON.stringify(request.url)}, {\n  ${options.join(',\n  ')},\n})`;
  return `const response = await ${call};\nconst ${request.method === 'GET' ? 'rows' : 'result'} = await response.json();`;
}

/**
 * The row an "add a row" example sends: a row of the sheet as it is, so that a number goes as a
 * JSON number and text as a string, as a client should send them; a column with no value there
 * shows a placeholder to fill in.
 */
export function exampleRow(
  columns: readonly string[],
  row: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  return Object.fromEntries(
    columns.map((column) => {
      const value = row?.[column];
      return [column, value === undefined || value === null ? `<${column}>` : value];
    }),
  );
}
