import { useRef, useState } from 'preact/hooks';
import { ApiProblem } from '../api/problem.ts';
import { uploadSheet } from '../api/upload.ts';
import type { SheetsCreated } from '../api/types.ts';
import { NameInUse } from '../components/name-in-use.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { SheetsCreatedList } from '../components/sheets-created.tsx';
import { useAction } from '../hooks/use-action.ts';
import { decimalOfFile } from '../lib/file-decimal.ts';
import { allTabs, workbookTabs } from '../lib/workbook-tabs.ts';

const accepted =
  '.csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const sizeLabel = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Upload a CSV or XLSX file: dropped on the zone or chosen with the file picker. A workbook's
 * tabs are read in the browser (see workbook-tabs.ts), so the picker shows before any upload;
 * should the server still not find the tab, the tabs it lists replace them. "All tabs" makes a
 * sheet of each, listed here once made, with the tabs skipped.
 */
export function UploadForm({ onCreated }: { onCreated: (sheetId: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [tabs, setTabs] = useState<string[] | null>(null);
  const [tab, setTab] = useState('');
  const [decimal, setDecimal] = useState<'.' | ','>('.');
  // The mark the file's own numbers ask for: sent only when the person picks the other one, so
  // that the server decides from the whole file by the same rule.
  const [fileDecimal, setFileDecimal] = useState<'.' | ','>('.');
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [made, setMade] = useState<SheetsCreated | null>(null);
  const chosen = useRef<File | null>(null);
  const action = useAction();

  const showTabs = (found: string[] | null) => {
    setTabs(found);
    setTab(found?.[0] ?? '');
  };

  const choose = (next: File | undefined) => {
    if (next === undefined) return;
    chosen.current = next;
    setFile(next);
    showTabs(null);
    setMade(null);
    action.clear();
    if (/\.xlsx$/i.test(next.name)) {
      // Unreadable here means corrupt: the upload then says so in the server's words.
      workbookTabs(next).then(
        (found) => chosen.current === next && showTabs(found),
        () => undefined,
      );
    } else {
      setDecimal('.');
      setFileDecimal('.');
      decimalOfFile(next).then(
        (found) => {
          if (chosen.current !== next) return;
          setDecimal(found);
          setFileDecimal(found);
        },
        () => undefined,
      );
    }
  };

  const upload = (selected: File) =>
    action.run(async () => {
      setProgress(0);
      setMade(null);
      try {
        const text = !/\.xlsx$/i.test(selected.name);
        const fields = { name, tab, ...(text && decimal !== fileDecimal && { decimal }) };
        const created = await uploadSheet(selected, fields, setProgress);
        if ('sheets' in created) setMade(created);
        else onCreated(created.id);
      } catch (error) {
        const listed = error instanceof ApiProblem ? error.document.tabs : undefined;
        if (listed !== undefined) showTabs(listed);
        throw error;
      } finally {
        setProgress(null);
      }
    });

  return (
    <form
      class="stack"
      aria-labelledby="upload-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (file !== null) void upload(file);
      }}
    >
      <h2 id="upload-heading">Upload a CSV or XLSX file</h2>
      <label
        class={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          choose(event.dataTransfer?.files[0]);
        }}
      >
        <input
          id="upload-file"
          class="visually-hidden"
          type="file"
          accept={accepted}
          onChange={(event) => choose(event.currentTarget.files?.[0])}
        />
        <span class="dropzone-text">
          {file === null ? (
            <>
              Drop a file here, or <span class="like-link">choose one</span>
            </>
          ) : (
            <>
              <strong>{file.name}</strong> ({sizeLabel(file.size)}) ·{' '}
              <span class="like-link">choose another</span>
            </>
          )}
        </span>
        <span class="hint">The first row names the columns.</span>
      </label>
      {tabs !== null && (
        <div class="field">
          <label for="upload-tab">Worksheet</label>
          <select
            id="upload-tab"
            value={tab}
            onChange={(event) => setTab(event.currentTarget.value)}
          >
            {tabs.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
            <option value={allTabs}>All tabs (a sheet each)</option>
          </select>
        </div>
      )}
      {file !== null && !/\.xlsx$/i.test(file.name) && (
        <div class="field">
          <label for="upload-decimal">Numbers in the file</label>
          <p class="hint" id="upload-decimal-hint">
            How this file writes amounts, as read from it: with a decimal comma, 1.234,50 and 12,99
            read as numbers.
          </p>
          <select
            id="upload-decimal"
            value={decimal}
            aria-describedby="upload-decimal-hint"
            onChange={(event) => setDecimal(event.currentTarget.value === ',' ? ',' : '.')}
          >
            <option value=".">Decimal point: 1234.50</option>
            <option value=",">Decimal comma: 1.234,50</option>
          </select>
        </div>
      )}
      <div class="field">
        <label for="upload-name">Name</label>
        <p class="hint" id="upload-name-hint">
          {tab === allTabs
            ? 'Optional: the file\'s name when left empty. Each sheet is named "<name> / <tab>".'
            : "Optional: the file's name when left empty."}
        </p>
        <input
          id="upload-name"
          maxLength={200}
          value={name}
          aria-describedby="upload-name-hint"
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <NameInUse
          name={name.trim() || (file?.name.replace(/\.[^.]*$/, '') ?? '')}
          id="upload-name-in-use"
        />
      </div>
      {progress !== null && (
        <div class="progress" role="status">
          <label for="upload-progress">
            {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Importing…'}
          </label>
          <progress id="upload-progress" max={1} value={progress} />
        </div>
      )}
      <ProblemMessage problem={action.problem} />
      {made !== null && <SheetsCreatedList created={made} />}
      <button type="submit" disabled={file === null || action.busy}>
        {action.busy ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}
