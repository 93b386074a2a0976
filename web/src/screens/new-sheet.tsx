import { ScreenTitle } from '../components/screen-title.tsx';
import { navigate } from '../hooks/use-route.ts';
import { hrefFor, type NewSheetKind } from '../lib/routes.ts';
import { ExcelForm } from './excel-form.tsx';
import { GoogleForm } from './google-form.tsx';
import { ScratchForm } from './scratch-form.tsx';
import { UploadForm } from './upload-form.tsx';

const kinds: { kind: NewSheetKind; label: string }[] = [
  { kind: 'scratch', label: 'From scratch' },
  { kind: 'upload', label: 'Upload a file' },
  { kind: 'google', label: 'Google spreadsheet' },
  { kind: 'excel', label: 'Excel workbook' },
];

/** The ways to make a sheet, one link each, so each has an address of its own. */
export function NewSheet({ kind }: { kind: NewSheetKind }) {
  const created = (sheetId: string) => navigate(hrefFor({ screen: 'sheet', sheetId }));
  return (
    <section>
      <ScreenTitle title="New sheet" />
      <nav class="choices" aria-label="Kind of sheet">
        {kinds.map((choice) => (
          <a
            key={choice.kind}
            href={hrefFor({ screen: 'new-sheet', kind: choice.kind })}
            aria-current={choice.kind === kind ? 'page' : undefined}
          >
            {choice.label}
          </a>
        ))}
      </nav>
      {kind === 'scratch' && <ScratchForm onCreated={created} />}
      {kind === 'upload' && <UploadForm onCreated={created} />}
      {kind === 'google' && <GoogleForm onCreated={created} />}
      {kind === 'excel' && <ExcelForm onCreated={created} />}
    </section>
  );
}
