import { useState } from 'preact/hooks';
import { connectExcelSheet, type WorkbookRef } from '../api/microsoft-api.ts';
import type { Sheet, SheetsCreated } from '../api/types.ts';
import { NameInUse } from '../components/name-in-use.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { SheetsCreatedList } from '../components/sheets-created.tsx';
import { useAction } from '../hooks/use-action.ts';
import { MicrosoftSignInPanel } from './microsoft-sign-in-panel.tsx';

/** What the person registering Sheetport in Microsoft Entra does, step by step. */
function Instructions() {
  return (
    <details class="panel">
      <summary>Register Sheetport with Microsoft, and give it a workbook</summary>
      <ol class="stack">
        <li>
          In <a href="https://entra.microsoft.com/">Microsoft Entra</a>, open App registrations, New
          registration. For a personal OneDrive choose "Accounts in any organizational directory and
          personal Microsoft accounts".
        </li>
        <li>
          Copy its Application (client) ID into <code>SHEETPORT_MICROSOFT_CLIENT_ID</code>, and its
          tenant into <code>SHEETPORT_MICROSOFT_TENANT_ID</code> (unset: any account), then restart
          Sheetport.
        </li>
        <li>
          <strong>To sign in as a user</strong> (personal OneDrive, or any account): under
          Authentication, allow public client flows; under API permissions, add the delegated
          Microsoft Graph permission <code>Files.ReadWrite</code>. Then sign in below. The workbooks
          that account can open are reachable.
        </li>
        <li>
          <strong>Or app-only</strong> (work or school OneDrive and SharePoint): add a client secret
          (<code>SHEETPORT_MICROSOFT_CLIENT_SECRET</code>) and the application permission{' '}
          <code>Files.ReadWrite.All</code> (or <code>Sites.Selected</code>, then grant the app its
          site), and have an administrator grant consent.
        </li>
        <li>
          In OneDrive or SharePoint, open the workbook's Share menu and copy a link, or take its
          drive and item ids from Microsoft Graph.
        </li>
      </ol>
    </details>
  );
}

/** Connect a worksheet of an Excel workbook in OneDrive or SharePoint. */
export function ExcelForm({ onCreated }: { onCreated: (sheetId: string) => void }) {
  const [link, setLink] = useState('');
  const [drive, setDrive] = useState('');
  const [item, setItem] = useState('');
  const [tab, setTab] = useState('');
  const [name, setName] = useState('');
  const [made, setMade] = useState<SheetsCreated | null>(null);
  const connect = useAction();

  const workbook = (): WorkbookRef => (link !== '' ? { link } : { drive, item });
  const given = link !== '' || (drive !== '' && item !== '');

  const submit = () =>
    connect.run(async () => {
      setMade(null);
      const answer: Sheet | SheetsCreated = await connectExcelSheet({
        workbook: workbook(),
        tab: tab || undefined,
        name: name || undefined,
      });
      if ('sheets' in answer) setMade(answer);
      else onCreated(answer.id);
    });

  return (
    <div class="stack">
      <h2 id="excel-heading">Connect an Excel workbook</h2>
      <Instructions />
      <MicrosoftSignInPanel />
      <form
        class="stack"
        aria-labelledby="excel-heading"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div class="field">
          <label for="excel-link">Sharing link</label>
          <p class="hint" id="excel-link-hint">
            Like https://1drv.ms/x/… or https://contoso.sharepoint.com/:x:/…
          </p>
          <input
            id="excel-link"
            type="url"
            value={link}
            aria-describedby="excel-link-hint"
            onInput={(event) => setLink(event.currentTarget.value)}
          />
        </div>
        <fieldset disabled={link !== ''}>
          <legend>Or the workbook's ids in Microsoft Graph</legend>
          <div class="field">
            <label for="excel-drive">Drive id</label>
            <input
              id="excel-drive"
              value={drive}
              onInput={(event) => setDrive(event.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="excel-item">Item id</label>
            <input
              id="excel-item"
              value={item}
              onInput={(event) => setItem(event.currentTarget.value)}
            />
          </div>
        </fieldset>
        <div class="field">
          <label for="excel-tab">Worksheet</label>
          <p class="hint" id="excel-tab-hint">
            The first worksheet, unless you name one.
          </p>
          <input
            id="excel-tab"
            value={tab}
            aria-describedby="excel-tab-hint"
            onInput={(event) => setTab(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="excel-name">Name</label>
          <p class="hint" id="excel-name-hint">
            Optional: the worksheet's name when left empty.
          </p>
          <input
            id="excel-name"
            maxLength={200}
            value={name}
            aria-describedby="excel-name-hint"
            onInput={(event) => setName(event.currentTarget.value)}
          />
          <NameInUse name={name} id="excel-name-in-use" />
        </div>
        <ProblemMessage problem={connect.problem} />
        {made !== null && <SheetsCreatedList created={made} />}
        <button type="submit" disabled={connect.busy || !given}>
          {connect.busy ? 'Connecting…' : 'Connect'}
        </button>
      </form>
    </div>
  );
}
