import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text as readText } from 'node:stream/consumers';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { scanCsv } from './csv-scan.ts';
import { decodingStream, encodingFromBom, encodingName } from './text-encoding.ts';

async function fileOf(t: TestContext, bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-encoding-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'file.csv');
  await writeFile(path, bytes);
  return path;
}

const bytes = (...values: number[]) => Buffer.from(values);

test('a byte-order mark names the encoding', () => {
  const table: [Buffer, string | null][] = [
    [bytes(0xef, 0xbb, 0xbf, 0x61), 'utf-8'],
    [bytes(0xff, 0xfe, 0x61, 0x00), 'utf-16le'],
    [bytes(0xfe, 0xff, 0x00, 0x61), 'utf-16be'],
    [Buffer.from('name,age'), null],
    [bytes(0xef, 0xbb), null],
    [bytes(), null],
  ];
  for (const [head, expected] of table) assert.equal(encodingFromBom(head), expected);
});

test('labels are known by their canonical names, and unknown ones are null', () => {
  const table: [string, string | null][] = [
    ['utf-8', 'utf-8'],
    ['UTF8', 'utf-8'],
    ['latin1', 'windows-1252'],
    ['cp1252', 'windows-1252'],
    [' iso-8859-15 ', 'iso-8859-15'],
    ['utf-16', 'utf-16le'],
    ['UTF-16BE', 'utf-16be'],
    ['shift_jis', 'shift_jis'],
    ['klingon', null],
    ['', null],
  ];
  for (const [label, expected] of table) assert.equal(encodingName(label), expected, label);
});

test('a file is UTF-8 when all of it is, Windows-1252 when any byte is not, or as its mark says, found in the pass over the file', async (t) => {
  const ascii = 'name,city\n' + 'Ann,Lisbon\n'.repeat(200_000);
  const late = Buffer.concat([Buffer.from(ascii), bytes(0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x0a)]);
  // A four-byte character straddling the 1 MiB chunks a file is read in.
  const straddling = Buffer.concat([Buffer.alloc((1 << 20) - 2, 0x61), Buffer.from('🙂\n')]);
  const table: [string, Buffer, string][] = [
    ['ASCII', Buffer.from(ascii), 'utf-8'],
    ['UTF-8', Buffer.from('name\nZoë\n東京 🙂\n'), 'utf-8'],
    ['a character across chunks', straddling, 'utf-8'],
    ['Windows-1252 after 2 MB of ASCII', late, 'windows-1252'],
    ['a cut-off character at the end', bytes(0x61, 0x0a, 0xe2, 0x82), 'windows-1252'],
    ['UTF-8 mark', Buffer.concat([bytes(0xef, 0xbb, 0xbf), Buffer.from('a\n')]), 'utf-8'],
    [
      'UTF-16LE mark',
      Buffer.concat([bytes(0xff, 0xfe), Buffer.from('a\n', 'utf16le')]),
      'utf-16le',
    ],
    ['UTF-16BE mark', bytes(0xfe, 0xff, 0x00, 0x61), 'utf-16be'],
    ['empty', bytes(), 'utf-8'],
  ];
  for (const [name, content, expected] of table) {
    const scan = await scanCsv(await fileOf(t, content), {}, ',');
    assert.equal(scan.encoding, expected, name);
  }
});

async function decode(encoding: string, chunks: Buffer[]): Promise<string> {
  return readText(Readable.from(chunks).pipe(decodingStream(encoding)));
}

test('decoding streams across chunk boundaries and drops the byte-order mark', async () => {
  const utf16 = Buffer.concat([bytes(0xff, 0xfe), Buffer.from('Zoë;🙂\r\n', 'utf16le')]);
  assert.equal(await decode('utf-16le', [utf16.subarray(0, 5), utf16.subarray(5)]), 'Zoë;🙂\r\n');
  const utf8 = Buffer.from('\ufeffZoë 🙂');
  assert.equal(await decode('utf-8', [utf8.subarray(0, 6), utf8.subarray(6)]), 'Zoë 🙂');
  assert.equal(await decode('windows-1252', [bytes(0x80, 0x4d, 0xfc, 0x93, 0x94)]), '€Mü“”');
});

test('bytes the encoding cannot read are refused with the line they are on', async () => {
  const chunks = [Buffer.from('name\nAnn\n'), Buffer.from('Bob\nZo'), bytes(0xeb, 0x0a)];
  await assert.rejects(decode('utf-8', chunks), (error: unknown) => {
    assert.ok(error instanceof Problem);
    assert.equal(error.code, 'invalid-upload');
    assert.equal(error.extensions.line, 4);
    assert.match(error.detail, /^Line 4 of the file holds bytes that are not utf-8 text/);
    return true;
  });
  await assert.rejects(decode('utf-8', [Buffer.from('a\nb\n'), bytes(0xe2, 0x82)]), {
    code: 'invalid-upload',
    detail: /^Line 3 /,
  });
});
