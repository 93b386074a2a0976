import { isDeepStrictEqual } from 'node:util';
import type { Server } from './servers.ts';

/**
 * Before a case is timed, each server is asked the case's request once and the answers are
 * compared: a benchmark of a server answering errors or the wrong rows would measure nothing.
 */

interface Answer {
  status: number;
  body: unknown;
  bytes: number;
}

async function get(url: string): Promise<Answer> {
  const response = await fetch(url);
  const text = await response.text();
  return {
    status: response.status,
    body: JSON.parse(text) as unknown,
    bytes: Buffer.byteLength(text),
  };
}

/** GETs `urls` (the same question to each server) and insists on equal 200 answers. */
export async function sameAnswers(urls: string[], expectRows: number | null): Promise<number[]> {
  const answers = await Promise.all(urls.map(get));
  answers.forEach((answer, i) => {
    if (answer.status !== 200) throw new Error(`GET ${urls[i]} answered ${answer.status}`);
    if (!Array.isArray(answer.body)) throw new Error(`GET ${urls[i]} did not answer an array`);
    if (answer.body.length === 0) throw new Error(`GET ${urls[i]} matched no row`);
    if (expectRows !== null && answer.body.length !== expectRows) {
      throw new Error(`GET ${urls[i]} answered ${answer.body.length} rows, not ${expectRows}`);
    }
    if (!isDeepStrictEqual(answer.body, answers[0]?.body)) {
      throw new Error(`GET ${urls[i]} answered other rows than GET ${urls[0]}`);
    }
  });
  return answers.map((answer) => answer.bytes);
}

/** POSTs one row and insists on 201. */
export async function created(url: string, row: unknown): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(row),
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`POST ${url} answered ${response.status}`);
}

/** How many rows a collection or sheet holds now, read back through its server's API. */
export async function rowCount(url: string): Promise<number> {
  const answer = await get(url);
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
  const { body } = answer;
  if (Array.isArray(body)) return body.length;
  const count = (body as { rowCount?: unknown }).rowCount;
  if (typeof count !== 'number') throw new Error(`GET ${url} did not give a row count`);
  return count;
}

/** Asks `server` every path once, a few at a time, so that its read cache holds every answer. */
export async function prime(server: Server, paths: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let path = paths[next++]; path !== undefined; path = paths[next++]) {
      const response = await fetch(`${server.url}${path}`);
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(`GET ${path} from ${server.name}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}
