import { useState } from 'preact/hooks';
import { connectGoogleSheet, getProviders } from '../api/admin-api.ts';
import { ApiProblem } from '../api/problem.ts';
import { CopyButton } from '../components/copy-button.tsx';
import type { Sheet, SheetsCreated } from '../api/types.ts';
import { NameInUse } from '../components/name-in-use.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { SheetsCreatedList } from '../components/sheets-created.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useResource } from '../hooks/use-resource.ts';
import { allTabs } from '../lib/workbook-tabs.ts';

/**
 * Connect a tab of a Google spreadsheet. "Find tabs" asks the API for a tab that cannot exist:
 * it answers 404 `tab-not-found` with the spreadsheet's `tabs`, and creates nothing.
 */
/** crypto.randomUUID needs a secure context; the console may be served over plain http. */
const randomHex = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');

export function GoogleForm({ onCreated }: { onCreated: (sheetId: string) => void }) {
  const providers = useResource(getProviders, 'providers');
  const google = providers.data?.google;
  const [spreadsheet, setSpreadsheet] = useState('');
  const [tabs, setTabs] = useState<string[] | null>(null);
  const [tab, setTab] = useState('');
  const [name, setName] = useState('');
  const [freshness, setFreshness] = useState('10');
  const [made, setMade] = useState<SheetsCreated | null>(null);
  const lookup = useAction();
  const connect = useAction();

  const takeTabs = (error: unknown) => {
    const listed = error instanceof ApiProblem ? error.document.tabs : undefined;
    if (listed === undefined) return false;
    setTabs(listed);
    setTab((current) => (listed.includes(current) ? current : (listed[0] ?? '')));
    return true;
  };

  const created = (answer: Sheet | SheetsCreated) => {
    if ('sheets' in answer) setMade(answer);
    else onCreated(answer.id);
  };

  const findTabs = () =>
    lookup.run(async () => {
      const probe = `sheetport-tab-probe-${randomHex()}`;
      try {
        // A tab of that name exists after all: it is connected.
        created(await connectGoogleSheet({ spreadsheetId: spreadsheet, tab: probe }));
      } catch (error) {
        if (!(error instanceof ApiProblem && error.code === 'tab-not-found' && takeTabs(error))) {
          throw error;
        }
      }
    });

  const submit = () =>
    connect.run(async () => {
      setMade(null);
      try {
        const answer = await connectGoogleSheet({
          spreadsheetId: spreadsheet,
          tab: tab || undefined,
          name: name || undefined,
          freshnessSeconds: freshness === '' ? undefined : Number(freshness),
        });
        created(answer);
      } catch (error) {
        takeTabs(error);
        throw error;
      }
    });

  return (
    <form
      class="stack"
      aria-labelledby="google-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id="google-heading">Connect a Google spreadsheet</h2>
      <ProblemMessage problem={providers.problem} />
      {google !== undefined && !google.configured && (
        <p class="notice">
          This server has no Google access yet. Set <code>SHEETPORT_GOOGLE_CREDENTIALS</code> (or{' '}
          <code>SHEETPORT_GOOGLE_API_KEY</code> for read-only sheets) and restart it; the README
          explains how.
        </p>
      )}
      {google?.shareWith && (
        <p class="notice">
          First share the spreadsheet with <code class="share-with">{google.shareWith}</code>{' '}
          <CopyButton text={google.shareWith} label="the service account's address" /> as an Editor
          (or a Viewer, to only read it).
        </p>
      )}
      {google?.configured && !google.canWrite && (
        <p class="notice">
          This server reads Google with an API key: share the spreadsheet as "anyone with the link",
          and expect writes to be refused.
        </p>
      )}
      <div class="field">
        <label for="google-spreadsheet">Spreadsheet address or id</label>
        <p class="hint" id="google-spreadsheet-hint">
          Paste the address the browser shows, like https://docs.google.com/spreadsheets/d/…/edit
        </p>
        <div class="inline">
          <input
            id="google-spreadsheet"
            required
            value={spreadsheet}
            aria-describedby="google-spreadsheet-hint google-lookup-problem"
            onInput={(event) => {
              setSpreadsheet(event.currentTarget.value);
              setTabs(null);
            }}
          />
          <button
            type="button"
            class="secondary"
            disabled={spreadsheet === '' || lookup.busy}
            onClick={() => void findTabs()}
          >
            {lookup.busy ? 'Finding tabs…' : 'Find tabs'}
          </button>
        </div>
        <ProblemMessage problem={lookup.problem} id="google-lookup-problem" />
      </div>
      <div class="field">
        <label for="google-tab">Tab</label>
        {tabs === null ? (
          <>
            <p class="hint" id="google-tab-hint">
              The first tab, unless you name one or find the tabs above.
            </p>
            <input
              id="google-tab"
              value={tab}
              aria-describedby="google-tab-hint"
              onInput={(event) => setTab(event.currentTarget.value)}
            />
          </>
        ) : (
          <select
            id="google-tab"
            value={tab}
            onChange={(event) => setTab(event.currentTarget.value)}
          >
            {tabs.map((title) => (
              <option key={title} value={title}>
                {title}
              </option>
            ))}
            <option value={allTabs}>All tabs (a sheet each)</option>
          </select>
        )}
      </div>
      <div class="field">
        <label for="google-name">Name</label>
        <p class="hint" id="google-name-hint">
          {tab === allTabs
            ? 'Optional: the spreadsheet\'s title when left empty. Each sheet is named "<name> / <tab>".'
            : "Optional: the tab's name when left empty."}
        </p>
        <input
          id="google-name"
          maxLength={200}
          value={name}
          aria-describedby="google-name-hint"
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <NameInUse name={name} id="google-name-in-use" />
      </div>
      <div class="field">
        <label for="google-freshness">Freshness window, in seconds</label>
        <p class="hint" id="google-freshness-hint">
          How old the copy Sheetport serves may be before it reads the spreadsheet again.
        </p>
        <input
          id="google-freshness"
          type="number"
          min={0}
          max={86400}
          value={freshness}
          aria-describedby="google-freshness-hint"
          onInput={(event) => setFreshness(event.currentTarget.value)}
        />
      </div>
      <ProblemMessage problem={connect.problem} />
      {made !== null && <SheetsCreatedList created={made} />}
      <button type="submit" disabled={connect.busy}>
        {connect.busy ? 'Connecting…' : 'Connect'}
      </button>
    </form>
  );
}
