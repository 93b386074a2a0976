import type { SheetsCreated } from '../api/types.ts';
import { hrefFor } from '../lib/routes.ts';
import { plural } from '../lib/sheet-labels.ts';

/** What a request for every tab made: a link to each sheet, and the tabs skipped and why. */
export function SheetsCreatedList({ created }: { created: SheetsCreated }) {
  return (
    <section class="notice created" role="status" aria-labelledby="created-heading">
      <h3 id="created-heading">Created {plural(created.sheets.length, 'sheet')}</h3>
      <ul aria-label="Sheets created">
        {created.sheets.map((sheet) => (
          <li key={sheet.id}>
            <a href={hrefFor({ screen: 'sheet', sheetId: sheet.id })}>{sheet.name}</a> (
            {plural(sheet.rowCount, 'row')})
          </li>
        ))}
      </ul>
      {created.skipped.length > 0 && (
        <>
          <p>Skipped {plural(created.skipped.length, 'tab')}:</p>
          <ul aria-label="Tabs skipped">
            {created.skipped.map(({ tab, reason }) => (
              <li key={tab}>
                <strong>{tab}</strong>: {reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
