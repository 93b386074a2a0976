import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FileEvidence, keptAsText } from './file-evidence.ts';
import { readingOfText } from './text-reading.ts';

/** The reading a column of cells (one column, below a header) asks for. */
function reading(cells: string[][], given?: '.' | ',') {
  const evidence = new FileEvidence();
  for (const row of cells) row.forEach((text, column) => evidence.see(column, text));
  return evidence.decide(given);
}

test('the decimal mark is the one only it explains some cell by, else the point', () => {
  const table: [string, string[], '.' | ',', boolean][] = [
    ['a decimal comma', ['12,50', '1.250', '3'], ',', false],
    ['grouped thousands with a decimal comma', ['1.234,56'], ',', false],
    ['a comma fraction below one', ['0,99'], ',', false],
    ['a decimal point', ['1.5', '1.250'], '.', false],
    ['a point fraction below one', ['0.25'], '.', false],
    ['both: the point, 1.250 kept as text', ['12,50', '1.5', '1.250'], '.', true],
    ['neither: the point, 1.250 kept as text', ['1.250', '12'], '.', true],
    ['whole numbers only', ['1', '20', '-3'], '.', true],
    ['text only', ['Ann', 'Bob'], '.', true],
    ['negative comma decimal', ['-7,25'], ',', false],
  ];
  for (const [name, cells, decimal, groupedAsText] of table) {
    const decided = reading(cells.map((cell) => [cell]));
    assert.deepEqual(
      { decimal: decided.decimal, groupedAsText: decided.groupedAsText },
      { decimal, groupedAsText },
      name,
    );
  }
});

test('a decimal mark given is used whatever the cells say', () => {
  assert.deepEqual(reading([['12,50']], '.'), {
    decimal: '.',
    groupedAsText: false,
    codeColumns: [],
  });
  assert.equal(reading([['1.5']], ',').decimal, ',');
});

test('1.250 is kept as text only when the file does not say which mark it uses', () => {
  assert.equal(keptAsText('1.250', { decimal: '.', groupedAsText: true }), true);
  assert.equal(keptAsText('-12.345.678', { decimal: '.', groupedAsText: true }), true);
  assert.equal(keptAsText('1.25', { decimal: '.', groupedAsText: true }), false);
  assert.equal(keptAsText('1234.250', { decimal: '.', groupedAsText: true }), false);
  assert.equal(keptAsText('1.250', { decimal: '.', groupedAsText: false }), false);
});

test('a column with a leading-zero code and no decimal part is a code column', () => {
  const table: [string, string[][], number[]][] = [
    ['SKUs', [['007'], ['0123'], ['1001']], [0]],
    ['no leading zero', [['7'], ['123']], []],
    ['a decimal part too', [['007'], ['1.5']], []],
    ['a zero alone is no code', [['0'], ['12']], []],
    [
      'only the second column',
      [
        ['1', '007'],
        ['2', '1001'],
      ],
      [1],
    ],
    [
      '0,5 is a decimal part under the comma',
      [
        ['007', '0,5'],
        ['1', '0,25'],
      ],
      [0],
    ],
  ];
  for (const [name, rows, codeColumns] of table) {
    assert.deepEqual(reading(rows).codeColumns, codeColumns, name);
  }
});

test('a comma fraction in a code column counts once the comma is the decimal mark', () => {
  assert.deepEqual(reading([['007'], ['1,5']]).codeColumns, []);
  assert.deepEqual(reading([['007'], ['1,5'], ['x']], '.').codeColumns, [0]);
});

test('a text in hand reads by the same rules, quotes respected and the header left out', () => {
  const table: [string, string, boolean, '.' | ',', number[]][] = [
    ['European', 'Artikel;Preis;Menge\r\nKaffee;12,50;1.250\r\nTee;3,99;20\r\n', true, ',', []],
    ['a point', 'item,price\npen,1.5\n', true, '.', []],
    ['codes', 'sku,name\n007,Kit\n1001,Desk\n', true, '.', [0]],
    ['a quoted comma decimal', 'a,b\n"12,50",x\n', true, ',', []],
    ['the header does not count', '0,99;x\n1;2\n', true, '.', []],
    ['a cut-off last record is left out', 'a;b\n1;2\n3;4,5', false, '.', []],
  ];
  for (const [name, text, complete, decimal, codeColumns] of table) {
    const reading = readingOfText(text, complete);
    assert.deepEqual([reading.decimal, reading.codeColumns], [decimal, codeColumns], name);
  }
});
