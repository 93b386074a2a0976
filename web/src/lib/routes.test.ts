import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hrefFor, parseRoute, type Route } from './routes.ts';

const cases: [string, Route][] = [
  ['', { screen: 'sheets' }],
  ['#/', { screen: 'sheets' }],
  ['#/sheets', { screen: 'sheets' }],
  ['#/new', { screen: 'new-sheet', kind: 'scratch' }],
  ['#/new/upload', { screen: 'new-sheet', kind: 'upload' }],
  ['#/new/google/', { screen: 'new-sheet', kind: 'google' }],
  ['#/new/excel', { screen: 'new-sheet', kind: 'excel' }],
  ['#/new/ftp', { screen: 'not-found', path: '/new/ftp' }],
  ['#/sheets/jUEBn33_-c0X', { screen: 'sheet', sheetId: 'jUEBn33_-c0X' }],
  ['#/sheets/abc/settings', { screen: 'settings', sheetId: 'abc' }],
  ['#/sheets/abc/rows', { screen: 'not-found', path: '/sheets/abc/rows' }],
  ['#/elsewhere', { screen: 'not-found', path: '/elsewhere' }],
];

for (const [hash, route] of cases) {
  test(`"${hash}" is ${JSON.stringify(route)}`, () => assert.deepEqual(parseRoute(hash), route));
}

test('every route reads back from its own address', () => {
  for (const [, route] of cases) assert.deepEqual(parseRoute(hrefFor(route)), route);
});
