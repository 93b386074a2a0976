/** Where a sheet's rows came from. Providers that mirror a live spreadsheet add their own kind. */
export type SheetSource =
  | { provider: 'scratch' }
  | { provider: 'upload'; fileName: string; format: 'csv' | 'xlsx'; tab?: string };

export interface SheetSettings {
  deleteEnabled: boolean;
}

/** A sheet as the management API describes it. */
export interface Sheet {
  id: string;
  name: string;
  columns: string[];
  rowCount: number;
  source: SheetSource;
  settings: SheetSettings;
  createdAt: string;
  updatedAt: string;
  /** Grows with every committed write; lets readers tell whether what they hold is current. */
  version: number;
}
