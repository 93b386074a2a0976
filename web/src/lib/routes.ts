/**
 * The console's screens and their addresses. Routes live in the fragment (`#/sheets/<id>`), so
 * the server serves one page at `/` and never needs to know the console's paths.
 */

export const newSheetKinds = ['scratch', 'upload', 'google', 'excel'] as const;
export type NewSheetKind = (typeof newSheetKinds)[number];

export type Route =
  | { screen: 'sheets' }
  | { screen: 'new-sheet'; kind: NewSheetKind }
  | { screen: 'sheet'; sheetId: string }
  | { screen: 'settings'; sheetId: string }
  | { screen: 'not-found'; path: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '') || '/';
  const parts = path.split('/').slice(1).map(decodeURIComponent);
  const [first, second, third, ...rest] = parts;
  if (path === '/' || (first === 'sheets' && second === undefined)) return { screen: 'sheets' };
  if (first === 'new' && third === undefined) {
    const kind = second ?? 'scratch';
    if ((newSheetKinds as readonly string[]).includes(kind)) {
      return { screen: 'new-sheet', kind: kind as NewSheetKind };
    }
  }
  if (first === 'sheets' && second !== undefined && second !== '' && rest.length === 0) {
    if (third === undefined) return { screen: 'sheet', sheetId: second };
    if (third === 'settings') return { screen: 'settings', sheetId: second };
  }
  return { screen: 'not-found', path };
}

export function hrefFor(route: Route): string {
  switch (route.screen) {
    case 'sheets':
      return '#/';
    case 'new-sheet':
      return route.kind === 'scratch' ? '#/new' : `#/new/${route.kind}`;
    case 'sheet':
      return `#/sheets/${encodeURIComponent(route.sheetId)}`;
    case 'settings':
      return `#/sheets/${encodeURIComponent(route.sheetId)}/settings`;
    case 'not-found':
      return `#${route.path}`;
  }
}
