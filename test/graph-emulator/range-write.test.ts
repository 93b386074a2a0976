/** Range PATCH read as Excel reads typed input, and insert/delete/clear with their shifts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCode, range, useEmulator } from './test-support.ts';

const fixture = useEmulator();

describe('range PATCH', () => {
  it('reads strings as typed input: numbers, leading zeros, booleans, percentages, dates, formulas', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [[2, 3]] }]);
    const values = [
      [
        '007',
        'true',
        '12.5%',
        '1/2/2024',
        '2024-03-04 13:30',
        '=A1*B1+1',
        "'007",
        '1,234',
        'hello',
      ],
    ];
    const answer = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A2:I2')}`, {
      values,
    });
    assert.equal(answer.status, 200);
    const body = answer.body as {
      values: unknown[][];
      numberFormat: unknown[][];
      formulas: unknown[][];
      text: unknown[][];
    };
    assert.deepEqual(body.values, [[7, true, 0.125, 45293, 45355.5625, 7, '007', 1234, 'hello']]);
    assert.deepEqual(body.numberFormat, [
      [
        'General',
        'General',
        '0.00%',
        'm/d/yyyy',
        'm/d/yyyy h:mm',
        'General',
        'General',
        '#,##0',
        'General',
      ],
    ]);
    assert.equal(body.formulas[0]?.[5], '=A1*B1+1');
    assert.deepEqual(body.text[0]?.slice(2, 5), ['12.50%', '1/2/2024', '3/4/2024 13:30']);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1')[1], body.values[0]);
  });

  it('keeps strings verbatim in text-formatted cells, numberFormat applied before values in one request', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
    const answer = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1:C1')}`, {
      numberFormat: [['@', '@', '@']],
      values: [['007', 'TRUE', '=1+1']],
    });
    const body = answer.body as { values: unknown[][]; valueTypes: unknown[][] };
    assert.deepEqual(body.values, [['007', 'TRUE', '=1+1']]);
    assert.deepEqual(body.valueTypes, [['String', 'String', 'String']]);
    assert.deepEqual(fixture.emulator.cell(ref, 'Sheet1', 'A1'), {
      value: '007',
      numberFormat: '@',
      text: '007',
    });
  });

  it('writes JSON numbers and booleans as they are, leaves null cells alone, and "" empties a cell', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['keep', 'old', 'gone']] }]);
    await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1:D1')}`, {
      values: [[null, 1.5, '', false]],
    });
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['keep', 1.5, '', false]]);
  });

  it('works formulas out from the cells they reference, as those change', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [[1, 2]] }]);
    await fixture.call('PATCH', `${workbook}${range('Sheet1', 'C1')}`, {
      formulas: [['=SUM(A1:B1)*10']],
    });
    assert.equal(fixture.emulator.cell(ref, 'Sheet1', 'C1').value, 30);
    fixture.emulator.setCells(ref, 'Sheet1', 'A1', [[5]]);
    assert.equal(fixture.emulator.cell(ref, 'Sheet1', 'C1').value, 70);
  });

  it('refuses arrays that do not match the range, changing nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a', 'b']] }]);
    const version = fixture.emulator.version(ref);
    const answer = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1:B2')}`, {
      numberFormat: [
        ['@', '@'],
        ['@', '@'],
      ],
      values: [['x', 'y']],
    });
    assert.deepEqual([answer.status, errorCode(answer)], [400, 'InvalidArgument']);
    assert.deepEqual(fixture.emulator.cell(ref, 'Sheet1', 'A1'), {
      value: 'a',
      numberFormat: 'General',
      text: 'a',
    });
    assert.equal(fixture.emulator.version(ref), version);
  });

  it('moves the item version on every applied write and not on reads', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
    const before = fixture.emulator.version(ref);
    await fixture.call('GET', `${workbook}${range('Sheet1', 'A1')}`);
    assert.equal(fixture.emulator.version(ref), before);
    await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1')}`, { values: [['x']] });
    assert.equal(fixture.emulator.version(ref), before + 1);
  });
});

describe('insert, delete and clear', () => {
  const rows = () => [['id'], ['1'], ['2'], ['3']];

  it('inserts whole rows shifting the ones below down, answering the blank range', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: rows() }]);
    const answer = await fixture.call('POST', `${workbook}${range('Sheet1', '3:4')}/insert`, {
      shift: 'Down',
    });
    assert.equal(answer.status, 200);
    assert.equal((answer.body as { address: string }).address, 'Sheet1!3:4');
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [
      ['id'],
      ['1'],
      [''],
      [''],
      ['2'],
      ['3'],
    ]);
  });

  it('refuses an insert whose blank range it would not answer (rangeExceedsLimit), moving nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: rows() }]);
    const answer = await fixture.call('POST', `${workbook}${range('Sheet1', '3:20')}/insert`, {
      shift: 'Down',
    });
    const inner = (answer.body as { error: { innerError: { code: string } } }).error.innerError
      .code;
    assert.deepEqual([answer.status, inner], [400, 'rangeExceedsLimit']);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), rows());
  });

  it('inserts cells in some columns only, leaving the other columns where they were', async () => {
    const { ref, workbook } = fixture.create([
      {
        name: 'Sheet1',
        rows: [
          ['a', 'x'],
          ['b', 'y'],
        ],
      },
    ]);
    await fixture.call('POST', `${workbook}${range('Sheet1', 'A1')}/insert`, { shift: 'Down' });
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [
      ['', 'x'],
      ['a', 'y'],
      ['b', ''],
    ]);
  });

  it('deletes whole rows shifting the ones below up, answering 204', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: rows() }]);
    const answer = await fixture.call('POST', `${workbook}${range('Sheet1', '2:3')}/delete`, {
      shift: 'Up',
    });
    assert.deepEqual([answer.status, answer.body], [204, undefined]);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['id'], ['3']]);
  });

  it('refuses a shift that does not fit the action, changing nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: rows() }]);
    const answer = await fixture.call('POST', `${workbook}${range('Sheet1', '2:2')}/delete`, {
      shift: 'Down',
    });
    assert.equal(answer.status, 400);
    assert.equal(fixture.emulator.values(ref, 'Sheet1').length, 4);
  });

  it('clears contents keeping formats, or everything', async () => {
    const { ref, workbook } = fixture.create([
      { name: 'Sheet1', rows: [[{ value: 'a', numberFormat: '@' }, 'b']] },
    ]);
    await fixture.call('POST', `${workbook}${range('Sheet1', 'A1')}/clear`, {
      applyTo: 'Contents',
    });
    assert.deepEqual(fixture.emulator.cell(ref, 'Sheet1', 'A1'), {
      value: '',
      numberFormat: '@',
      text: '',
    });
    const answer = await fixture.call('POST', `${workbook}${range('Sheet1', 'A1:B1')}/clear`, {});
    assert.equal(answer.status, 204);
    assert.deepEqual(fixture.emulator.cell(ref, 'Sheet1', 'A1').numberFormat, 'General');
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), []);
  });

  it('refuses to push non-empty cells off the end of the sheet (nonBlankCellOffSheet), changing nothing', async () => {
    const { ref, workbook } = fixture.create([
      { name: 'Sheet1', at: 'A1048576', rows: [['last']] },
    ]);
    const answer = await fixture.call('POST', `${workbook}${range('Sheet1', '2:2')}/insert`, {
      shift: 'Down',
    });
    const inner = (answer.body as { error: { innerError: { code: string } } }).error.innerError
      .code;
    assert.deepEqual([answer.status, inner], [400, 'nonBlankCellOffSheet']);
    assert.equal(fixture.emulator.cell(ref, 'Sheet1', 'A1048576').value, 'last');
    const beside = await fixture.call('POST', `${workbook}${range('Sheet1', 'B2')}/insert`, {
      shift: 'Down',
    });
    assert.equal(beside.status, 200, 'other columns have room');
  });
});
