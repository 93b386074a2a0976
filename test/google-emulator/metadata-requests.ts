/**
 * The developer-metadata requests of spreadsheets.batchUpdate (create, update, delete, each with
 * its reply) and the spreadsheets.developerMetadata methods get and search.
 */
import type { sheets_v4 } from '@googleapis/sheets';
import {
  checkComplete,
  freshMetadataId,
  metadataFields,
  metadataResource,
  parseMetadata,
  type Fail,
  type MetadataLocation,
  type StoredMetadata,
} from './developer-metadata.ts';
import { invalidArgument, notFound } from './errors.ts';
import { arrayField, objectField, stringField, type Json, type JsonObject } from './json.ts';
import { matches, parseDataFilter, type Lookup } from './metadata-lookup.ts';
import type { Book } from './state.ts';

/** The fields an updateDeveloperMetadata mask may name; `*` names them all. */
const UPDATABLE = ['metadataKey', 'metadataValue', 'location', 'visibility'] as const;
type Updatable = (typeof UPDATABLE)[number];

type MetadataRequest = (book: Book, request: JsonObject, fail: Fail) => object;

export const metadataRequests: Record<string, MetadataRequest> = {
  createDeveloperMetadata(book, request, fail): sheets_v4.Schema$CreateDeveloperMetadataResponse {
    const json = objectField(request, 'developerMetadata', 'createDeveloperMetadata');
    if (!json) throw fail('developerMetadata must be set.');
    const { metadataId, ...fields } = parseMetadata(json, 'developerMetadata', fail);
    checkSheet(book, fields.location, fail);
    if (metadataId !== undefined && book.metadata.some((e) => e.metadataId === metadataId)) {
      throw fail(`Developer metadata with id ${metadataId} already exists.`);
    }
    const entry = { metadataId: metadataId ?? freshMetadataId(book.metadata), ...fields };
    book.metadata = [...book.metadata, entry];
    return { developerMetadata: metadataResource(entry) };
  },

  updateDeveloperMetadata(book, request, fail): sheets_v4.Schema$UpdateDeveloperMetadataResponse {
    const lookups = dataFilters(request, fail);
    const mask = parseMask(stringField(request, 'fields', 'updateDeveloperMetadata'), fail);
    const json = objectField(request, 'developerMetadata', 'updateDeveloperMetadata') ?? {};
    const changes = maskedChanges(json, mask, fail);
    if (changes.location) checkSheet(book, changes.location, fail);
    const updated: StoredMetadata[] = [];
    book.metadata = book.metadata.map((entry) => {
      if (!lookups.some((lookup) => matches(lookup, entry))) return entry;
      const next = {
        metadataId: entry.metadataId,
        ...checkComplete({ ...entry, ...changes }, fail),
      };
      updated.push(next);
      return next;
    });
    return updated.length ? { developerMetadata: updated.map(metadataResource) } : {};
  },

  deleteDeveloperMetadata(book, request, fail): sheets_v4.Schema$DeleteDeveloperMetadataResponse {
    const filter = request.dataFilter;
    if (filter === undefined || filter === null) throw fail('dataFilter must be set.');
    const lookup = parseDataFilter(filter, 'dataFilter', fail);
    const deleted = book.metadata.filter((entry) => matches(lookup, entry));
    // The reference does not say what Google does when nothing matches: a switch decides.
    if (deleted.length === 0 && book.rules.emptyDeleteFails) {
      throw fail('No developer metadata matches the given data filter.');
    }
    book.metadata = book.metadata.filter((entry) => !matches(lookup, entry));
    return deleted.length ? { deletedDeveloperMetadata: deleted.map(metadataResource) } : {};
  },
};

/** spreadsheets.developerMetadata.get: one entry by its id. */
export function getDeveloperMetadata(
  book: Book,
  idText: string,
): sheets_v4.Schema$DeveloperMetadata {
  if (!/^-?\d+$/.test(idText)) {
    throw invalidArgument(`Invalid value at 'metadata_id' (TYPE_INT32), "${idText}"`);
  }
  const entry = book.metadata.find((candidate) => candidate.metadataId === Number(idText));
  if (!entry) throw notFound();
  return metadataResource(entry);
}

/** spreadsheets.developerMetadata.search: each entry any filter selects, once, with those filters. */
export function searchDeveloperMetadata(
  book: Book,
  body: JsonObject,
): sheets_v4.Schema$SearchDeveloperMetadataResponse {
  const filters = arrayField(body, 'dataFilters', 'body');
  const lookups = dataFilters(body, invalidArgument);
  const matched = book.metadata.flatMap((entry) => {
    // Each filter parsed as an object, so it is a DataFilter.
    const by = filters.filter((_, i) => matches(lookups[i] as Lookup, entry));
    const dataFilters = by as sheets_v4.Schema$DataFilter[];
    return by.length ? [{ developerMetadata: metadataResource(entry), dataFilters }] : [];
  });
  return matched.length ? { matchedDeveloperMetadata: matched } : {};
}

/** The lookups of a `dataFilters` list, which may not be empty. */
function dataFilters(json: JsonObject, fail: Fail): Lookup[] {
  const filters: Json[] = arrayField(json, 'dataFilters', 'dataFilters');
  if (filters.length === 0) throw fail('At least one data filter must be specified.');
  return filters.map((filter, i) => parseDataFilter(filter, `dataFilters[${i}]`, fail));
}

function parseMask(text: string | undefined, fail: Fail): Updatable[] {
  const names = (text ?? '').split(',').map((name) => name.trim());
  if (names.length === 1 && names[0] === '') throw fail('fields must name at least one field.');
  if (names.includes('*')) return [...UPDATABLE];
  for (const name of names) {
    if (!(UPDATABLE as readonly string[]).includes(name)) {
      throw fail(`fields: ${name} cannot be updated; only ${UPDATABLE.join(', ')} can.`);
    }
  }
  return names as Updatable[];
}

/** The fields the mask names, as the body gives them; a named field left out clears it. */
function maskedChanges(
  json: JsonObject,
  mask: Updatable[],
  fail: Fail,
): Partial<Omit<StoredMetadata, 'metadataId'>> {
  const where = 'developerMetadata';
  const read = {
    metadataKey: () => metadataFields.metadataKey(json, where),
    metadataValue: () => metadataFields.metadataValue(json, where),
    visibility: () => metadataFields.visibility(json, where),
    location: () => metadataFields.location(json, where, fail),
  };
  return Object.fromEntries(mask.map((name) => [name, read[name]()]));
}

function checkSheet(book: Book, location: MetadataLocation, fail: Fail): void {
  if (!('sheetId' in location)) return;
  const tab = book.tabs.find((candidate) => candidate.sheetId === location.sheetId);
  if (!tab) throw fail(`No grid with id: ${location.sheetId}`);
  if (location.row !== undefined && location.row >= tab.rowCount) {
    throw fail(
      `Range (row ${location.row + 1}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`,
    );
  }
}
