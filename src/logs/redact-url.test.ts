import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactUrl } from './redact-url.ts';

const key = `sp_${'a'.repeat(12)}_${'B'.repeat(43)}`;

test('secret-like query parameters and API keys are replaced; everything else is kept as sent', () => {
  const cases: [string, string][] = [
    ['/api/v1/abc', '/api/v1/abc'],
    ['/api/v1/abc?name=Ann&age=__gt(30)', '/api/v1/abc?name=Ann&age=__gt(30)'],
    ['/api/v1/abc?api_key=xyz', '/api/v1/abc?api_key=[Redacted]'],
    ['/api/v1/abc?apiKey=xyz&name=Ann', '/api/v1/abc?apiKey=[Redacted]&name=Ann'],
    ['/api/v1/abc?token=t0k3n', '/api/v1/abc?token=[Redacted]'],
    ['/admin/v1/sheets?access_token=abc', '/admin/v1/sheets?access_token=[Redacted]'],
    ['/x?Authorization=Bearer%20abc', '/x?Authorization=[Redacted]'],
    [
      '/x?password=hunter2&secret=s&session=1',
      '/x?password=[Redacted]&secret=[Redacted]&session=[Redacted]',
    ],
    ['/x?%6Bey=abc', '/x?%6Bey=[Redacted]'],
    ['/x?k%zz=abc', '/x?k%zz=abc'],
    [`/api/v1/abc?note=${key}`, '/api/v1/abc?note=[Redacted]'],
    [`/api/v1/${key}`, '/api/v1/[Redacted]'],
    ['/x?flag&key', '/x?flag&key'],
    // Row keys choose and show rows; a column that merely ends in "key" is still hidden.
    ['/api/v1/abc?_key=3,4&_with_key=true', '/api/v1/abc?_key=3,4&_with_key=true'],
    ['/api/v1/abc?my_key=x&__key=y', '/api/v1/abc?my_key=[Redacted]&__key=[Redacted]'],
    ['/x?sig=abc&sign=up', '/x?sig=[Redacted]&sign=up'],
    ['/x?SIG=abc', '/x?SIG=[Redacted]'],
    [
      '/x?signature=s&token=t&access_token=a&key=k&apikey=p&password=w&secret=c',
      '/x?signature=[Redacted]&token=[Redacted]&access_token=[Redacted]&key=[Redacted]&apikey=[Redacted]&password=[Redacted]&secret=[Redacted]',
    ],
    [`/api/v1/${key}/events`, '/api/v1/[Redacted]/events'],
    [`/api/v1/sheets/${key.slice(0, -5)}`, '/api/v1/sheets/[Redacted]'],
    [`/api/v1/${key}x`, '/api/v1/[Redacted]'],
    ['/api/v1/Q2hhcmxpZXMgc2hlZXQ', '/api/v1/Q2hhcmxpZXMgc2hlZXQ'],
    ['/api/v1/sp_short_id', '/api/v1/sp_short_id'],
    [`/api/v1/sp%5F${key.slice(3)}`, '/api/v1/[Redacted]'],
    [`/api/v1/%73%70%5f${key.slice(3, 30)}%2D${key.slice(31)}/events`, '/api/v1/[Redacted]/events'],
    [`/x?note=sp%5F${key.slice(3)}&a=1`, '/x?note=[Redacted]&a=1'],
    ['/api/v1/sp%5Fshort', '/api/v1/sp%5Fshort'],
    ['/x?', '/x?'],
  ];
  for (const [url, expected] of cases) assert.equal(redactUrl(url), expected, url);
});
