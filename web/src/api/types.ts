/** The shapes of the management and row APIs, as the README documents them. */

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export type AccessMode = 'open' | 'public-read' | 'private';
export const accessModes: AccessMode[] = ['open', 'public-read', 'private'];

export const keyScopes = ['read', 'create', 'update', 'delete'] as const;
export type KeyScope = (typeof keyScopes)[number];

export type SheetSource =
  | { provider: 'scratch' }
  | { provider: 'upload'; fileName: string; format: 'csv' | 'xlsx'; tab?: string }
  | { provider: 'google'; spreadsheetId: string; tab: string };

export interface SheetSettings {
  deleteEnabled: boolean;
  /** Absent on sheets made before access control, which are open. */
  access?: AccessMode;
  allowedOrigins?: string[];
  freshnessSeconds?: number;
}

export interface Sheet {
  id: string;
  name: string;
  columns: string[];
  rowCount: number;
  source: SheetSource;
  settings: SheetSettings;
  createdAt: string;
  updatedAt: string;
}

export type SheetPatch = Partial<{
  name: string;
  deleteEnabled: boolean;
  access: AccessMode;
  allowedOrigins: string[];
  freshnessSeconds: number;
}>;

export interface ApiKey {
  id: string;
  name: string;
  scopes: KeyScope[];
  createdAt: string;
}

/** A key as created: the only answer that carries the secret. */
export interface NewApiKey extends ApiKey {
  key: string;
}

export interface Providers {
  google: { configured: boolean; canWrite: boolean; shareWith: string | null };
}

/** One offending cell of a refused header row. */
export interface HeaderCellProblem {
  cell: string;
  problem: string;
}
