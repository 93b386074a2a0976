/**
 * Who may do what: every route of the row API, by method and by the way its query chooses rows,
 * with the scopes an API key needs for it; management routes need the administrator. The
 * administrator may do everything; anonymous callers may do everything on an open sheet, and
 * what needs only `read` on a public-read sheet. The same table is in docs (see
 * who-may.test.ts, which checks every route against every kind of credential).
 */
export interface RouteForm {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** The scopes a key needs, every one of them; or the administrator alone. */
  needs: readonly ('read' | 'create' | 'update' | 'delete')[] | 'administrator';
  /** The status of an allowed request. */
  status: number;
  /** An event stream: only its status is read. */
  stream?: true;
}

const rows = '/api/v1/:sheetId';
const ann = { name: 'Ann' };

export const routeTable: readonly RouteForm[] = [
  { method: 'GET', path: rows, needs: ['read'], status: 200 },
  { method: 'HEAD', path: rows, needs: ['read'], status: 200 },
  { method: 'GET', path: `${rows}?name=Ann`, needs: ['read'], status: 200 },
  { method: 'GET', path: `${rows}?_or=name=Ann|note=y&_sort=-name`, needs: ['read'], status: 200 },
  { method: 'GET', path: `${rows}?_id=0&_fields=name`, needs: ['read'], status: 200 },
  { method: 'GET', path: `${rows}/query?name=Ann`, needs: ['read'], status: 200 },
  { method: 'GET', path: '/api/v1/sheets/:sheetId', needs: ['read'], status: 200 },
  { method: 'GET', path: `${rows}/openapi.json`, needs: ['read'], status: 200 },
  { method: 'GET', path: `${rows}/events`, needs: ['read'], status: 200, stream: true },
  { method: 'POST', path: rows, body: ann, needs: ['create'], status: 201 },
  { method: 'POST', path: '/api/v1/sheets/:sheetId', body: [ann], needs: ['create'], status: 201 },
  {
    method: 'POST',
    path: `${rows}?_upsert=name`,
    body: ann,
    needs: ['create', 'update', 'read'],
    status: 200,
  },
  { method: 'PUT', path: `${rows}?_id=0`, body: ann, needs: ['update'], status: 200 },
  { method: 'PUT', path: `${rows}?name=Nobody`, body: ann, needs: ['update', 'read'], status: 200 },
  { method: 'PATCH', path: `${rows}?_id=0`, body: ann, needs: ['update'], status: 200 },
  { method: 'PATCH', path: `${rows}?name=Ann`, body: ann, needs: ['update', 'read'], status: 200 },
  {
    method: 'PATCH',
    path: `${rows}?_or=name=Nobody|note=y`,
    body: ann,
    needs: ['update', 'read'],
    status: 200,
  },
  { method: 'DELETE', path: `${rows}?_id=0`, needs: ['delete'], status: 200 },
  { method: 'DELETE', path: `${rows}?name=Nobody`, needs: ['delete', 'read'], status: 200 },
  // By key: the last row's, which no DELETE ?_id=0 above reaches.
  { method: 'GET', path: `${rows}/rows/399`, needs: ['read'], status: 200 },
  { method: 'GET', path: `${rows}?_key=399&_with_key=true`, needs: ['read'], status: 200 },
  { method: 'PUT', path: `${rows}/rows/399`, body: ann, needs: ['update'], status: 200 },
  { method: 'PATCH', path: `${rows}/rows/399`, body: ann, needs: ['update'], status: 200 },
  { method: 'PATCH', path: `${rows}?_key=399`, body: ann, needs: ['update'], status: 200 },
  // A key that names no row: who may ask is settled first, and only then is it found missing.
  { method: 'DELETE', path: `${rows}/rows/9999`, needs: ['delete'], status: 404 },
  { method: 'DELETE', path: `${rows}?_key=9999`, needs: ['delete'], status: 404 },
  { method: 'GET', path: '/admin/v1/sheets', needs: 'administrator', status: 200 },
  { method: 'GET', path: '/admin/v1/sheets/:sheetId/keys', needs: 'administrator', status: 200 },
  {
    method: 'GET',
    path: '/admin/v1/sheets/:sheetId/webhooks',
    needs: 'administrator',
    status: 200,
  },
];
