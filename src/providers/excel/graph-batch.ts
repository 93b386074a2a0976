import {
  GraphFailure,
  innerCodes,
  retryAfter,
  type CallOptions,
  type GraphClient,
  type GraphErrorBody,
} from './graph-client.ts';

/** One request of a workbook's, as sent alone or inside a `$batch`. */
export interface GraphRequest {
  method: string;
  path: string;
  body: unknown;
  /** Deletes a name once the operation landed: its failure does not undo the operation. */
  cleanup?: true;
}

export interface BatchResponse {
  id: string;
  status: number;
  headers?: Record<string, string>;
  body?: ({ error?: GraphErrorBody } & Record<string, unknown>) | null;
}

/**
 * One JSON batch in the session of `options`; each request depends on the one `after` names
 * (its index), if any. The answers by id (`1`, `2`, … in the order given).
 */
export async function sendBatch(
  client: GraphClient,
  requests: (GraphRequest & { after: number | undefined })[],
  options: CallOptions & { session: string },
): Promise<Map<string, BatchResponse>> {
  const body = requests.map((request, i) => ({
    id: String(i + 1),
    method: request.method,
    url: `/${request.path}`,
    headers: { 'content-type': 'application/json', 'workbook-session-id': options.session },
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.after === undefined ? {} : { dependsOn: [String(request.after + 1)] }),
  }));
  // The batch itself carries no session: each request inside it does.
  const answer = (await client.call('POST', '$batch', {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    body: { requests: body },
  })) as { responses?: BatchResponse[] } | null;
  return new Map((answer?.responses ?? []).map((each) => [String(each.id), each]));
}

export const ok = (response: BatchResponse): boolean =>
  response.status >= 200 && response.status < 300;

/**
 * A request of a batch that failed, as if it had been sent alone; one the batch's answer left
 * out (undefined) as a 502.
 */
export function failureOf(response: BatchResponse | undefined): GraphFailure {
  if (response === undefined) {
    return new GraphFailure('no answer in the batch', 502, undefined, undefined);
  }
  const error = response.body?.error;
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return new GraphFailure(
    error?.message ?? `status ${response.status}`,
    response.status,
    error?.code,
    retryAfter(headers['retry-after'] ?? null),
    false,
    innerCodes(error),
  );
}
