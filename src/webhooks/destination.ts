import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { Problem } from '../errors/problem.ts';

/**
 * Where a webhook may be sent. Server-side request forgery is refused: a destination must be
 * http(s), and every address its name resolves to must be public, not loopback, private,
 * link-local (cloud metadata services live there), shared, multicast or reserved, unless
 * SHEETPORT_WEBHOOK_ALLOW_PRIVATE allows them. It is checked when a webhook is made and again at
 * each delivery, after DNS, and the delivery connects to the very address checked.
 */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, 'ipv4');
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return forbidden.check(mapped, 'ipv4');
  return family === 6 ? forbidden.check(address, 'ipv6') : true;
}

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

/** Resolves a destination and checks every address it has; answers the first. */
export async function resolveDestination(
  text: string,
  allowPrivate: boolean,
): Promise<Destination> {
  const url = parseDestination(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses =
      isIP(host) !== 0
        ? [{ address: host, family: isIP(host) }]
        : await lookup(host, { all: true });
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
