import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embeddedIpv4, ipv6Bytes, isForbiddenAddress } from './forbidden-address.ts';

test('addresses are refused after the IANA special-purpose registries, however IPv6 spells IPv4', () => {
  const cases: [string, boolean][] = [
    // IPv4
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['0.0.0.0', true],
    ['10.1.2.3', true],
    ['100.64.0.1', true],
    ['127.0.0.1', true],
    ['169.254.169.254', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.0.0.170', true],
    ['192.0.2.1', true],
    ['192.88.99.1', true],
    ['192.168.1.1', true],
    ['198.18.0.1', true],
    ['198.51.100.1', true],
    ['203.0.113.1', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    // IPv6 of its own
    ['2606:4700:4700::1111', false],
    ['::', true],
    ['::1', true],
    ['100::1', true],
    ['100:0:0:1::1', true],
    ['2001:2::1', true],
    ['2001:10::1', true],
    ['2001:db8::1', true],
    ['3fff::1', true],
    ['5f00::1', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fec0::1', true],
    ['feff::1', true],
    ['ff02::1', true],
    ['4000::1', true],
    // IPv4-mapped
    ['::ffff:127.0.0.1', true],
    ['::FFFF:7f00:1', true],
    ['::ffff:8.8.8.8', false],
    // IPv4-compatible, deprecated: refused whatever it holds
    ['::127.0.0.1', true],
    ['::8.8.8.8', true],
    ['0:0:0:0:0:0:7f00:1', true],
    // SIIT, IPv4-translated
    ['::ffff:0:127.0.0.1', true],
    ['::ffff:0:a00:1', true],
    ['::ffff:0:8.8.8.8', false],
    // NAT64, well-known prefix: judged by the IPv4 address; local-use prefix: refused
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::8.8.8.8', false],
    ['64:ff9b:1::8.8.8.8', true],
    ['64:ff9b:1:ffff::1', true],
    // 6to4: the IPv4 address in bits 16 to 48
    ['2002:7f00:1::', true],
    ['2002:c0a8:101::1', true],
    ['2002:a9fe:a9fe:1::1', true],
    ['2002:808:808::1', false],
    // Teredo: server in bits 32 to 64, client in the last 32 bits, inverted
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
    ['2001:0:7f00:1:0:0:808:808', true],
    ['2001:0:808:808:0:0:80ff:fefe', true],
    ['2001::f7f7:f7f7', true], // server 0.0.0.0
    ['2001:0:808:808::f5ff:fefe', true],
    // not an address
    ['localhost', true],
    ['', true],
  ];
  for (const [address, refused] of cases) {
    assert.equal(isForbiddenAddress(address), refused, address);
  }
});

test('IPv6 text becomes its 16 bytes, and the IPv4 addresses it carries are found', () => {
  const hex = (address: string) => Buffer.from(ipv6Bytes(address) ?? []).toString('hex');
  assert.equal(hex('::'), '0'.repeat(32));
  assert.equal(hex('::1'), `${'0'.repeat(31)}1`);
  assert.equal(hex('2001:db8::ff00:42:8329'), '20010db8000000000000ff0000428329');
  assert.equal(hex('::ffff:192.0.2.1'), '00000000000000000000ffffc0000201');
  assert.equal(hex('fe80::1%lo'), 'fe800000000000000000000000000001');
  assert.equal(ipv6Bytes('1.2.3.4'), null);
  assert.equal(ipv6Bytes('::g'), null);
  const carried = (address: string) => embeddedIpv4(ipv6Bytes(address) ?? new Uint8Array(16));
  assert.deepEqual(carried('2001:0:4136:e378:8000:63bf:3fff:fdd2'), [
    '65.54.227.120',
    '192.0.2.45',
  ]);
  assert.deepEqual(carried('2002:c000:204::1'), ['192.0.2.4']);
  assert.deepEqual(carried('64:ff9b::c000:221'), ['192.0.2.33']);
  assert.equal(carried('2606:4700::1'), null);
});
