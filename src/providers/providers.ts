import { excelKind, openExcel } from './excel/excel-kind.ts';
import { openExcelWith, type MicrosoftAccess } from './excel/microsoft-access.ts';
import type { MicrosoftSettings } from './excel/microsoft-settings.ts';
import { googleKind, openGoogle } from './google/google-kind.ts';
import type { GoogleSettings } from './google/google-settings.ts';
import { ProviderRegistry, type LiveProvider, type ProviderKind } from './registry.ts';

/** Each provider's settings, by its name, as the configuration reads them. */
export interface ProviderSettings {
  google: GoogleSettings;
  microsoft: MicrosoftSettings;
}

/**
 * What a server opened besides the settings: the Microsoft access that holds its sign-in (a
 * user's, kept in the store), whose tokens the Excel provider then uses.
 */
export interface OpenedAccess {
  microsoft?: MicrosoftAccess;
}

/** Every provider this server knows, with how each opens from its settings: one line each. */
const known: readonly {
  kind: ProviderKind;
  open(settings: ProviderSettings, access: OpenedAccess): Promise<LiveProvider | null>;
}[] = [
  { kind: googleKind, open: (settings) => openGoogle(settings.google) },
  {
    kind: excelKind,
    open: (settings, { microsoft }) =>
      microsoft === undefined
        ? openExcel(settings.microsoft)
        : openExcelWith(settings.microsoft, microsoft),
  },
];

/** The kinds of every known provider, configured or not. */
export const providerKinds: readonly ProviderKind[] = known.map(({ kind }) => kind);

/** The registry of every known provider, with those the settings configure opened. */
export async function openProviders(
  settings: ProviderSettings,
  access: OpenedAccess = {},
): Promise<ProviderRegistry> {
  const live = new Map<string, LiveProvider>();
  for (const { kind, open } of known) {
    const provider = await open(settings, access);
    if (provider !== null) live.set(kind.name, provider);
  }
  return new ProviderRegistry(providerKinds, live);
}

/** The registry of every known provider, with the given live ones, e.g. a test's. */
export function registryOf(live: Record<string, LiveProvider | undefined> = {}): ProviderRegistry {
  const opened = Object.entries(live).flatMap(([name, provider]) =>
    provider === undefined ? [] : [[name, provider] as const],
  );
  return new ProviderRegistry(providerKinds, new Map(opened));
}
