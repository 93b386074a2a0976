import type { Static, Type } from '@sinclair/typebox';
import { excelKind } from './excel/excel-kind.ts';
import { openExcelAccess } from './excel/microsoft-access.ts';
import {
  microsoftEnv,
  microsoftSettings,
  type MicrosoftSettings,
} from './excel/microsoft-settings.ts';
import { googleKind, openGoogle } from './google/google-kind.ts';
import { googleEnv, googleSettings, type GoogleSettings } from './google/google-settings.ts';
import { ProviderRegistry, type LiveProvider, type ProviderKind } from './registry.ts';
import type { ProviderContext, ProviderSignIn } from './sign-in.ts';

/** Each provider's settings, by its name, as the configuration reads them. */
export interface ProviderSettings {
  google: GoogleSettings;
  microsoft: MicrosoftSettings;
}

/** The variables that configure every provider, for the configuration schema to include. */
export const providerEnv = { ...googleEnv, ...microsoftEnv };

/** Every provider's settings, from the variables of `providerEnv` once the schema checked them. */
export function providerSettings(
  env: Static<ReturnType<typeof Type.Object<typeof providerEnv>>>,
): ProviderSettings {
  return { google: googleSettings(env), microsoft: microsoftSettings(env) };
}

/** What a provider opened: its live connection and its sign-in, each null when not configured. */
interface Opened {
  provider: LiveProvider | null;
  signIn: ProviderSignIn | null;
}

/** Every provider this server knows, with how each opens from its settings: one line each. */
const known: readonly {
  kind: ProviderKind;
  open(settings: ProviderSettings, context: ProviderContext): Promise<Opened>;
}[] = [
  {
    kind: googleKind,
    open: async (settings) => ({ provider: await openGoogle(settings.google), signIn: null }),
  },
  { kind: excelKind, open: (settings, context) => openExcelAccess(settings.microsoft, context) },
];

/** The kinds of every known provider, configured or not. */
export const providerKinds: readonly ProviderKind[] = known.map(({ kind }) => kind);

/**
 * The registry of every known provider, with those the settings configure opened, and their
 * sign-ins kept in `context.credentials`. `only` opens just the providers named (a command that
 * needs one provider does not load the others).
 */
export async function openProviders(
  settings: ProviderSettings,
  context: ProviderContext = {},
  only?: readonly string[],
): Promise<ProviderRegistry> {
  const live = new Map<string, LiveProvider>();
  const signIns = new Map<string, ProviderSignIn>();
  for (const { kind, open } of known) {
    if (only !== undefined && !only.includes(kind.name)) continue;
    const { provider, signIn } = await open(settings, context);
    if (provider !== null) live.set(kind.name, provider);
    if (signIn !== null) signIns.set(kind.name, signIn);
  }
  return new ProviderRegistry(providerKinds, live, signIns);
}

/** The registry of every known provider, with the given live ones and sign-ins, e.g. a test's. */
export function registryOf(
  live: Record<string, LiveProvider | undefined> = {},
  signIns: Record<string, ProviderSignIn | null | undefined> = {},
): ProviderRegistry {
  const present = <T>(entries: Record<string, T | null | undefined>) =>
    new Map(
      Object.entries(entries).flatMap(([name, value]) =>
        value === undefined || value === null ? [] : [[name, value] as const],
      ),
    );
  return new ProviderRegistry(providerKinds, present(live), present(signIns));
}
