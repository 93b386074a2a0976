import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { detectDelimiter, detectedDelimiters, fieldCounts } from './csv-dialect.ts';

test('the delimiter is the one that splits every line into as many fields as the header', () => {
  const table: [string, string, string][] = [
    ['comma', 'name,age\nAnn,31\nBob,27\n', ','],
    ['semicolon with decimal commas', 'Name;Betrag\r\nMüller;1.234,50\r\nZoë;-7,25\r\n', ';'],
    ['tab', 'name\tcity\nAnn\tLisbon, Portugal\n', '\t'],
    ['pipe', 'name|age|city\nAnn|31|Lisbon\n', '|'],
    ['quoted commas do not count', 'name;note\n"Ann";"a, b, c"\n"Bob";"d, e"\n', ';'],
    ['quoted semicolons do not count', 'name,note\nAnn,"a; b"\nBob,"c; d; e"\n', ','],
    ['a quoted field may span lines', 'name;note\nAnn;"first line\nsecond, line"\nBob;x\n', ';'],
    ['doubled quotes stay inside the field', 'a|b\n"say ""x|y"""|2\n', '|'],
    ['header only', 'name;age;city\n', ';'],
    ['no line break at the end', 'name\tage\nAnn\t31', '\t'],
    ['blank lines are not records', 'name,age\n\nAnn,31\n\n', ','],
    ['one column: the preferred delimiter', 'name\nAnn\nBob\n', ','],
    ['empty file', '', ','],
    // Ragged lines: the candidate that matches the header on most lines wins.
    ['most lines match', 'a;b;c\n1;2;3\n4;5\n6;7;8\n9,5;1;2\n', ';'],
    // Both split every line alike: the one with more fields wins.
    ['more fields win a tie', 'a,b;c,d\n1,2;3,4\n', ','],
    ['same fields: the order of preference', 'a,b;c\n1,2;3\n', ','],
    // Under a comma, the pipe-separated quotes would be malformed: `|"` and `a"` are no fields.
    ['quotes that only one candidate reads', '|",a"\nx|",b"\n', '|'],
  ];
  for (const [name, sample, expected] of table) {
    assert.equal(detectDelimiter(sample, true), expected, name);
  }
});

test('a file the extension calls tab-separated prefers tabs when nothing else decides', () => {
  assert.equal(detectDelimiter('name\nLisbon, Portugal\n', true, '\t'), '\t');
  assert.equal(detectDelimiter('a,b\tc\n1,2\t3\n', true, '\t'), '\t');
  assert.equal(detectDelimiter('a;b\n1;2\n', true, '\t'), ';');
});

test('a last line the sample cuts off is not judged, unless the sample is the whole file', () => {
  assert.deepEqual(fieldCounts('a;b\n1;2\n3', ';', false), [2, 2]);
  assert.deepEqual(fieldCounts('a;b\n1;2\n3', ';', true), [2, 2, 1]);
  assert.deepEqual(fieldCounts('a;b\n1;"2\n3', ';', false), [2]);
  assert.equal(detectDelimiter('a;b\n1;2\n3,4,5,6', false), ';');
});

test('field counts follow quotes, delimiters and every kind of line break', () => {
  const table: [string, string, number[]][] = [
    ['a,b\r\nc,d\re,f\n', ',', [2, 2, 2]],
    ['"a,b",c\n', ',', [2]],
    // Quotes a reader would refuse: inside an unquoted field, or text after a closing quote.
    ['a"b,c\n', ',', [-1]],
    ['"a"b,c\n', ',', [-1]],
    ['"a" ,c\nd,e\n', ',', [-1, 2]],
    ['x,"a;b"\n', ';', [-1]],
    ['"a""b",c\n', ',', [2]],
    ['"a\nb",c\n', ',', [2]],
    [',\n', ',', [2]],
    ['\n\n', ',', []],
  ];
  for (const [sample, delimiter, expected] of table) {
    assert.deepEqual(fieldCounts(sample, delimiter, true), expected, JSON.stringify(sample));
  }
});

test('a table written with any candidate delimiter, fields holding one quoted, reads back with it', () => {
  const field = fc.string({ unit: fc.constantFrom('a', 'é', ',', ';', '\t', '|', '"', '\n', ' ') });
  const table = fc
    .integer({ min: 2, max: 6 })
    .chain((width) =>
      fc.tuple(
        fc.array(field, { minLength: width, maxLength: width }),
        fc.array(fc.array(field, { minLength: width, maxLength: width }), { maxLength: 5 }),
      ),
    );
  const quoted = (text: string) =>
    /[,;\t|"\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  fc.assert(
    fc.property(table, fc.constantFrom(...detectedDelimiters), ([header, rows], delimiter) => {
      const text = [header, ...rows].map((row) => row.map(quoted).join(delimiter)).join('\r\n');
      assert.equal(detectDelimiter(text, true), delimiter);
    }),
  );
});
