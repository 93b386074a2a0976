import { useContext } from 'preact/hooks';
import { getSheet } from '../api/admin-api.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { ScreenTitle } from '../components/screen-title.tsx';
import { TokenInUse } from '../hooks/use-admin-session.ts';
import { useResource } from '../hooks/use-resource.ts';
import { hrefFor } from '../lib/routes.ts';
import { ApiKeysPanel } from './api-keys-panel.tsx';
import { WebhooksPanel } from './webhooks-panel.tsx';
import { RemoveSheet } from './remove-sheet.tsx';
import { WatchForm } from './watch-form.tsx';
import {
  AccessForm,
  DeleteSwitch,
  FreshnessForm,
  NameForm,
  OriginsForm,
  TextColumnsForm,
} from './settings-forms.tsx';

/** A sheet's settings, each saved on its own with PATCH, its keys, and removing it. */
export function SettingsView({ sheetId }: { sheetId: string }) {
  const sheet = useResource(() => getSheet(sheetId), sheetId);
  const tokenInUse = useContext(TokenInUse);
  const current = sheet.data;
  return (
    <section>
      <p class="breadcrumb">
        <a href={hrefFor({ screen: 'sheet', sheetId })}>← {current?.name ?? 'Sheet'}</a>
      </p>
      <ScreenTitle title={current === undefined ? 'Settings' : `Settings of ${current.name}`} />
      <ProblemMessage problem={sheet.problem} />
      {current === undefined ? (
        sheet.loading && <p role="status">Loading the settings…</p>
      ) : (
        <>
          <section class="panel" aria-labelledby="general-heading">
            <h2 id="general-heading">General</h2>
            <NameForm sheet={current} onSaved={sheet.set} />
            <DeleteSwitch sheet={current} onSaved={sheet.set} />
            <TextColumnsForm sheet={current} onSaved={sheet.set} />
            {current.source.provider === 'google' && (
              <>
                <FreshnessForm sheet={current} onSaved={sheet.set} />
                <WatchForm sheet={current} onSaved={sheet.set} />
              </>
            )}
          </section>
          <section class="panel" aria-labelledby="access-heading">
            <h2 id="access-heading">Access</h2>
            {!tokenInUse && (
              <p class="notice">
                This server has no administrator token (<code>SHEETPORT_ADMIN_TOKEN</code>), so it
                listens on this machine only and treats every caller as the administrator. Access
                modes and keys take effect once a token is set.
              </p>
            )}
            <AccessForm sheet={current} onSaved={sheet.set} />
            <OriginsForm sheet={current} onSaved={sheet.set} />
          </section>
          <ApiKeysPanel sheet={current} />
          <WebhooksPanel sheet={current} />
          <RemoveSheet sheet={current} />
        </>
      )}
    </section>
  );
}
