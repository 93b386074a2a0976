import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostName, isCrossSite, isLoopbackName } from './browser-guard.ts';

test('the host name of a Host header, without its port; null when it is none', () => {
  const cases: [string, string | null][] = [
    ['localhost', 'localhost'],
    ['LocalHost:8080', 'localhost'],
    ['localhost.:8080', 'localhost'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['[::1]:8080', '[::1]'],
    ['[::1]', '[::1]'],
    ['attacker.example', 'attacker.example'],
    ['localhost.attacker.example:80', 'localhost.attacker.example'],
    ['', null],
    ['a b', null],
    ['::1', null],
    ['localhost:80:80', null],
    ['[::1', null],
  ];
  for (const [host, expected] of cases) assert.equal(hostName(host), expected, host);
});

test('loopback names are localhost, 127.0.0.0/8 written out, and [::1]', () => {
  const cases: [string, boolean][] = [
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['127.0.0.1.nip.io', false],
    ['127.0.0.256', false],
    ['0.0.0.0', false],
    ['[::ffff:127.0.0.1]', false],
    ['localhost.localdomain', false],
    ['sub.localhost', false],
  ];
  for (const [name, expected] of cases) assert.equal(isLoopbackName(name), expected, name);
});

test('a request is cross-site when Sec-Fetch-Site says so or its Origin names another host', () => {
  const host = 'localhost:8080';
  const cases: [Record<string, string>, boolean][] = [
    [{}, false],
    [{ 'sec-fetch-site': 'same-origin' }, false],
    [{ 'sec-fetch-site': 'none' }, false],
    [{ 'sec-fetch-site': 'same-site' }, true],
    [{ 'sec-fetch-site': 'cross-site' }, true],
    [{ origin: 'http://localhost:8080' }, false],
    [{ origin: 'https://LOCALHOST:8080' }, false],
    [{ origin: 'http://localhost:5173' }, true],
    [{ origin: 'https://evil.example' }, true],
    [{ origin: 'null' }, true],
    [{ origin: 'http://localhost:8080', 'sec-fetch-site': 'cross-site' }, true],
    [{ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, true],
  ];
  for (const [headers, expected] of cases) {
    assert.equal(isCrossSite({ host, ...headers }), expected, JSON.stringify(headers));
  }
});
