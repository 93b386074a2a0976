import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Problem } from '../errors/problem.ts';
import { isForbiddenAddress } from './forbidden-address.ts';

/**
 * Where a webhook may be sent. Server-side request forgery is refused: a destination must be
 * http(s), and every address its name resolves to must be public (see forbidden-address.ts),
 * unless SHEETPORT_WEBHOOK_ALLOW_PRIVATE allows the others. It is checked when a webhook is made
 * and again at each delivery, after DNS, and the delivery connects to the very address checked.
 */

/** Every address of a host name; the system's resolver unless another is given. */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true });

export interface Destination {
  url: URL;
  /** The address checked, which the delivery connects to. */
  address: string;
  family: 4 | 6;
}

export function parseDestination(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Problem('invalid-webhook', `"${text}" is not a URL.`, { field: 'url' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Problem(
      'invalid-webhook',
      `A webhook is sent over http or https, not ${url.protocol}`,
      {
        field: 'url',
      },
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new Problem('invalid-webhook', 'A webhook URL holds no user name or password.', {
      field: 'url',
    });
  }
  return url;
}

/**
 * Resolves a destination and checks every address it has; answers the first. Gives up when
 * `signal` aborts: a resolver that never answers must not hold a delivery past its deadline.
 */
export async function resolveDestination(
  text: string,
  allowPrivate: boolean,
  { resolver = systemResolver, signal }: { resolver?: Resolver; signal?: AbortSignal } = {},
): Promise<Destination> {
  const url = parseDestination(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses =
      isIP(host) !== 0
        ? [{ address: host, family: isIP(host) }]
        : await abortable(resolver(host), signal);
  } catch (error) {
    throw new Problem(
      'webhook-destination-refused',
      `"${url.hostname}" does not resolve (${(error as Error).message}).`,
      {
        field: 'url',
      },
    );
  }
  if (!allowPrivate) {
    const bad = addresses.find(({ address }) => isForbiddenAddress(address));
    if (bad !== undefined) {
      throw new Problem(
        'webhook-destination-refused',
        `"${url.hostname}" resolves to ${bad.address}, a loopback, private, link-local or reserved address, to which webhooks are not sent (SHEETPORT_WEBHOOK_ALLOW_PRIVATE=true allows it).`,
        { field: 'url' },
      );
    }
  }
  const [first] = addresses;
  if (first === undefined) {
    throw new Problem('webhook-destination-refused', `"${url.hostname}" has no address.`, {
      field: 'url',
    });
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** `work`, or a rejection with the signal's reason once it aborts, whichever comes first. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
