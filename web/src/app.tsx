import type { ComponentChildren } from 'preact';
import { TokenInUse, useAdminSession } from './hooks/use-admin-session.ts';
import { useRoute } from './hooks/use-route.ts';
import { hrefFor, type Route } from './lib/routes.ts';
import { NewSheet } from './screens/new-sheet.tsx';
import { NotFound } from './screens/not-found.tsx';
import { SettingsView } from './screens/settings-view.tsx';
import { SheetList } from './screens/sheet-list.tsx';
import { SheetView } from './screens/sheet-view.tsx';
import { SignIn } from './screens/sign-in.tsx';

/** The console: a header, and the screen the address names once the API lets us in. */
export function App() {
  const { route, hash } = useRoute();
  const { session, signIn, signOut } = useAdminSession();
  const signedIn = session.state === 'signed-in';
  return (
    <TokenInUse.Provider value={signedIn && session.tokenInUse}>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          // The fragment holds the route, so the skip link moves focus itself.
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          Sheetport
        </a>
        <nav aria-label="Console">
          {signedIn && (
            <NavLink href="#/" current={isSheetsRoute(route)}>
              Sheets
            </NavLink>
          )}
          {signedIn && (
            <NavLink
              href={hrefFor({ screen: 'new-sheet', kind: 'scratch' })}
              current={route.screen === 'new-sheet'}
            >
              New sheet
            </NavLink>
          )}
          <a href="/docs">API docs</a>
          {signedIn && session.tokenInUse && (
            <button type="button" class="link" onClick={signOut}>
              Sign out
            </button>
          )}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {session.state === 'checking' && <p role="status">Connecting to the server…</p>}
        {session.state === 'needs-token' && <SignIn reason={session.reason} signIn={signIn} />}
        {signedIn && <Screen key={hash} route={route} />}
      </main>
    </TokenInUse.Provider>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.screen) {
    case 'sheets':
      return <SheetList />;
    case 'new-sheet':
      return <NewSheet kind={route.kind} />;
    case 'sheet':
      return <SheetView sheetId={route.sheetId} />;
    case 'settings':
      return <SettingsView sheetId={route.sheetId} />;
    case 'not-found':
      return <NotFound path={route.path} />;
  }
}

const isSheetsRoute = (route: Route) =>
  route.screen === 'sheets' || route.screen === 'sheet' || route.screen === 'settings';

function NavLink(props: { href: string; current: boolean; children: ComponentChildren }) {
  return (
    <a href={props.href} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
