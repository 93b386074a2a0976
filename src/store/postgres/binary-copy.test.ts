import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstColumn } from './binary-copy.ts';

/** Binary COPY output as PostgreSQL writes it: signature, flags, header extension, tuples, trailer. */
function copyOutput(rows: (string | null)[][], extension = Buffer.alloc(0)): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')];
  const int = (bits: 16 | 32, value: number) => {
    const bytes = Buffer.alloc(bits / 8);
    if (bits === 16) bytes.writeInt16BE(value);
    else bytes.writeInt32BE(value);
    return bytes;
  };
  parts.push(int(32, 0), int(32, extension.length), extension);
  for (const row of rows) {
    parts.push(int(16, row.length));
    for (const value of row) {
      if (value === null) parts.push(int(32, -1));
      else parts.push(int(32, Buffer.byteLength(value)), Buffer.from(value));
    }
  }
  parts.push(int(16, -1));
  return Buffer.concat(parts);
}

test('the first field of each tuple comes back as its bytes, nulls as null', () => {
  const values = firstColumn(
    copyOutput(
      [
        ['{"a":"Zoë"}', 'x'],
        [null, 'y'],
        ['', null],
        ['[1,2]', ''],
      ],
      Buffer.from('ext'),
    ),
  );
  assert.deepEqual(
    values.map((value) => (value === null ? null : value.toString())),
    ['{"a":"Zoë"}', null, '', '[1,2]'],
  );
});

test('no tuples is an empty list; output without the signature is refused', () => {
  assert.deepEqual(firstColumn(copyOutput([])), []);
  assert.throws(() => firstColumn(Buffer.from('1\tjson\n')), /signature/);
});
