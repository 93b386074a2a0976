import { useState } from 'preact/hooks';
import { hasRowKeys, readRows, rowsPath } from '../api/rows-api.ts';
import type { Sheet } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { useResource } from '../hooks/use-resource.ts';
import {
  curlExample,
  exampleRow,
  fetchExample,
  type ExampleRequest,
} from '../lib/example-requests.ts';
import { rowQueryString, type Filter, type SortKey } from '../lib/filter-query.ts';

interface Props {
  sheet: Sheet;
  filters: Filter[];
  sort: SortKey[];
}

/** The sheet's addresses, ready to copy, and example requests that follow the filter bar. */
export function EndpointsPanel({ sheet, filters, sort }: Props) {
  const [tool, setTool] = useState<'curl' | 'fetch'>('curl');
  const base = `${location.origin}${rowsPath(sheet.id)}`;
  const query = rowQueryString({ filters, sort });
  const access = sheet.settings.access ?? 'open';
  // The first row shows what each column holds, so the example sends values of those types.
  const withKeys = hasRowKeys(sheet.columns);
  const first = useResource(
    () => readRows(sheet.id, '_limit=1', withKeys),
    `${sheet.id}:${sheet.updatedAt}`,
  );
  const sample = exampleRow(sheet.columns, first.data?.rows[0]?.row);
  const examples: { title: string; request: ExampleRequest }[] = [
    {
      title: query === '' ? 'Read every row' : 'Read the rows the filter bar selects',
      request: {
        method: 'GET',
        url: query === '' ? base : `${base}?${query}`,
        needsKey: access === 'private',
      },
    },
    {
      title: 'Add a row',
      request: { method: 'POST', url: base, body: sample, needsKey: access !== 'open' },
    },
  ];
  const endpoints = [
    { label: 'Rows', url: base, does: 'GET, POST, PUT, PATCH, DELETE' },
    { label: 'Query', url: `${base}/query`, does: 'GET with the same filters' },
    ...(withKeys
      ? [
          {
            label: 'One row',
            url: `${base}/rows/${first.data?.rows[0]?.key ?? '{key}'}`,
            does: 'GET, PUT, PATCH, DELETE by the row key, which stays while rows move',
          },
        ]
      : []),
    {
      label: 'OpenAPI',
      url: `${base}/openapi.json`,
      does: "this sheet's document, its columns typed, for generated clients",
      link: true,
    },
  ];
  return (
    <section class="panel" aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">Endpoints</h2>
      <dl class="endpoints">
        {endpoints.map((endpoint) => (
          <div key={endpoint.label}>
            <dt>
              {endpoint.label} <span class="hint">{endpoint.does}</span>
            </dt>
            <dd>
              <code>
                {endpoint.link === true ? <a href={endpoint.url}>{endpoint.url}</a> : endpoint.url}
              </code>
              <CopyButton text={endpoint.url} label={`the ${endpoint.label} URL`} />
            </dd>
          </div>
        ))}
      </dl>
      {access !== 'open' && (
        <p class="hint">
          This sheet is {access === 'private' ? 'private' : 'public to read'}: requests that need a
          key send one of its API keys (Settings) as <code>Authorization: Bearer</code>; the
          examples read it from <code>$SHEETPORT_KEY</code> or <code>key</code>.
        </p>
      )}
      <details class="examples">
        <summary>Example requests</summary>
        <div class="tool-switch" role="group" aria-label="Example requests for">
          {(['curl', 'fetch'] as const).map((name) => (
            <button
              key={name}
              type="button"
              class="secondary small"
              aria-pressed={tool === name}
              onClick={() => setTool(name)}
            >
              {name}
            </button>
          ))}
        </div>
        {examples.map(({ title, request }) => {
          const text = tool === 'curl' ? curlExample(request) : fetchExample(request);
          return (
            <figure class="example" key={title}>
              <figcaption>
                {title}
                <CopyButton text={text} label={`the ${tool} example: ${title}`} />
              </figcaption>
              <pre tabIndex={0}>
                <code>{text}</code>
              </pre>
            </figure>
          );
        })}
      </details>
    </section>
  );
}
