import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFields, selectFields } from './fields.ts';

const spreadsheet = {
  spreadsheetId: 'x',
  properties: { title: 'T', locale: 'en_US' },
  sheets: [
    {
      properties: { sheetId: 0, title: 'A', index: 0, gridProperties: { rowCount: 3 } },
      data: [
        {
          rowData: [
            {
              values: [
                {
                  formattedValue: '1',
                  effectiveFormat: { numberFormat: { type: 'DATE', pattern: 'd' } },
                },
                {},
              ],
            },
            {},
          ],
        },
      ],
    },
  ],
};

describe('fields', () => {
  const cases: [string, unknown][] = [
    ['spreadsheetId', { spreadsheetId: 'x' }],
    ['properties/title,spreadsheetId', { spreadsheetId: 'x', properties: { title: 'T' } }],
    ['sheets.properties(sheetId,title)', { sheets: [{ properties: { sheetId: 0, title: 'A' } }] }],
    [
      'sheets(data(rowData(values(effectiveFormat/numberFormat/type))))',
      {
        sheets: [
          {
            data: [
              {
                rowData: [
                  { values: [{ effectiveFormat: { numberFormat: { type: 'DATE' } } }, {}] },
                  {},
                ],
              },
            ],
          },
        ],
      },
    ],
    ['properties(*)', { properties: { title: 'T', locale: 'en_US' } }],
  ];
  for (const [fields, expected] of cases) {
    it(fields, () => assert.deepEqual(selectFields(spreadsheet, parseFields(fields)), expected));
  }

  it('refuses a selection it cannot parse', () => {
    assert.throws(() => parseFields('sheets(properties'), /Invalid field selection/);
    assert.throws(() => parseFields('a,,b'), /Invalid field selection/);
  });
});
