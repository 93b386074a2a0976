import { BlockList, isIP } from 'node:net';

/**
 * Addresses no webhook is sent to, after the IANA special-purpose registries: loopback, private,
 * shared, link-local (cloud metadata services live there), benchmarking, documentation,
 * multicast, reserved and deprecated ranges. An IPv6 address that carries an IPv4 address to be
 * reached through it (mapped, translated, NAT64, 6to4, Teredo) is judged by that IPv4 address.
 */
const forbidden4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast, deprecated
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  forbidden4.addSubnet(network, prefix, 'ipv4');
}

/** Global unicast: everything outside 2000::/3 is special, save the forms that carry IPv4. */
const global6 = new BlockList();
global6.addSubnet('2000::', 3, 'ipv6');

const forbidden6 = new BlockList();
for (const [network, prefix] of [
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID, deprecated
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const) {
  forbidden6.addSubnet(network, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (a zone, `%eth0`, left aside); null when it is not one. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.split('%')[0] ?? '';
  if (isIP(text) !== 6) return null;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  const hex = quad === null ? text : `${text.slice(0, quad.index)}0:0`;
  const [head = '', tail] = hex.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const words = [
    ...groups(head),
    ...(tail === undefined
      ? []
      : Array<string>(8 - groups(head).length - groups(tail).length).fill('0')),
    ...groups(tail ?? ''),
  ];
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    const value = parseInt(word, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  });
  if (quad !== null) bytes.set(quad.slice(1).map(Number), 12);
  return bytes;
}

function ipv4At(bytes: Uint8Array, at: number, xor = 0): string {
  return [...bytes.subarray(at, at + 4)].map((byte) => byte ^ xor).join('.');
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

const zeros = (count: number) => Array<number>(count).fill(0);

/**
 * The IPv4 addresses an IPv6 address leads to, or null when it carries none: IPv4-mapped
 * `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` (RFC 6052), 6to4
 * `2002:aabb:ccdd::` (RFC 3056), and Teredo `2001:0:<server>::<client XOR ffffffff>`
 * (RFC 4380), whose server and client both are reached.
 */
export function embeddedIpv4(bytes: Uint8Array): string[] | null {
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return [ipv4At(bytes, 12)];
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return [ipv4At(bytes, 12)];
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return [ipv4At(bytes, 12)];
  if (startsWith(bytes, [0x20, 0x02])) return [ipv4At(bytes, 2)];
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) return [ipv4At(bytes, 4), ipv4At(bytes, 12, 0xff)];
  return null;
}

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden4.check(address, 'ipv4');
  const bytes = ipv6Bytes(address);
  if (bytes === null) return true;
  const carried = embeddedIpv4(bytes);
  if (carried !== null) return carried.some((ipv4) => forbidden4.check(ipv4, 'ipv4'));
  // Written out in full, so that the check never depends on how the address was spelt.
  const full = Array.from({ length: 8 }, (_, i) =>
    (((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0)).toString(16),
  ).join(':');
  return !global6.check(full, 'ipv6') || forbidden6.check(full, 'ipv6');
}
