import { Problem } from '../errors/problem.ts';
import { isMirrored, type Sheet } from '../model/sheet.ts';
import type { SheetProvider } from '../providers/provider.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { SheetStore } from '../store/store.ts';
import { MirrorWritePath } from './mirror-write-path.ts';
import type { SheetMirror } from './sheet-mirror.ts';
import { StoreWritePath, type WritePath } from './write-path.ts';

/**
 * Chooses each sheet's write path: the store alone for sheets that live only here, the mirror's
 * for sheets of a configured provider (one path per provider), and a refusal for sheets of a
 * provider this server has no access to.
 */
export function writePaths(
  store: SheetStore,
  mirror: SheetMirror,
  providers: ProviderRegistry,
): (sheet: Sheet) => WritePath {
  const storePath = new StoreWritePath(store);
  const mirrorPaths = new Map<SheetProvider, WritePath>();
  return (sheet) => {
    if (!isMirrored(sheet.source)) return storePath;
    const provider = providers.providerOf(sheet.source);
    if (provider === null) return unconfigured(sheet, providers);
    let path = mirrorPaths.get(provider);
    if (path === undefined) {
      path = new MirrorWritePath(store, mirror, provider);
      mirrorPaths.set(provider, path);
    }
    return path;
  };
}

/** The path of a sheet whose provider is known but not configured here, or no longer known. */
function unconfigured(sheet: Sheet, providers: ProviderRegistry): WritePath {
  const name = sheet.source.provider;
  const label = providers.kinds().find((kind) => kind.name === name)?.label ?? name;
  return {
    async commit(_sheet, writes) {
      const problem = new Problem(
        'provider-not-configured',
        `Sheet "${sheet.name}" mirrors a ${label} spreadsheet, but this server has no ${label} access configured; see the README.`,
      );
      return writes.map(() => ({ kind: 'refused', problem }));
    },
  };
}
