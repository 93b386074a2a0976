/**
 * The workbook API on defined names: list, add, get and delete a name of the workbook or of a
 * worksheet, and read, write, insert or delete the cells it refers to, wherever they moved.
 */
import type { Workbook } from './drive.ts';
import { invalidArgument, methodNotAllowed, workbookItemNotFound } from './errors.ts';
import { checkName, nameResource, parseReference, type DefinedName } from './names.ts';
import { patchRange } from './range-write.ts';
import type { NameRoute, SheetRef } from './routes.ts';
import { findSheet, rangeAction, readBox, type Answer } from './workbook-api.ts';
import type { Worksheet } from './worksheet.ts';

interface Found {
  defined: DefinedName;
  sheet: Worksheet;
}

/** Every name of a scope (the workbook's: `null`), with the worksheet its cells are on. */
function namesOf(workbook: Workbook, scope: string | null): Found[] {
  return workbook.worksheets.flatMap((sheet) =>
    (sheet.names ?? [])
      .filter((defined) => defined.scope === scope)
      .map((defined) => ({ defined, sheet })),
  );
}

/** A name of the scope, compared without case as Excel compares names. */
export function findName(
  workbook: Workbook,
  scope: string | null,
  name: string,
): Found | undefined {
  const lower = name.toLowerCase();
  return namesOf(workbook, scope).find((each) => each.defined.name.toLowerCase() === lower);
}

function scopeOf(workbook: Workbook, ref: SheetRef | undefined): Worksheet | null {
  if (ref === undefined) return null;
  const sheet = findSheet(workbook, ref);
  if (!sheet) throw workbookItemNotFound(`worksheet '${ref.text}'`);
  return sheet;
}

export function runOnNames(
  workbook: Workbook,
  route: NameRoute,
  method: string,
  body: Record<string, unknown>,
): Answer {
  const scope = scopeOf(workbook, route.scope);
  const scopeId = scope?.id ?? null;
  if (route.op === 'names') {
    const value = namesOf(workbook, scopeId).map(({ defined, sheet }) =>
      nameResource(defined, sheet.name),
    );
    return { status: 200, body: { value } };
  }
  if (route.op === 'nameAdd') return addName(workbook, scope, body);
  const found = findName(workbook, scopeId, route.name);
  if (!found) throw workbookItemNotFound(`name '${route.name}'`);
  const { defined, sheet } = found;
  if (route.op === 'name') {
    if (method === 'GET') return { status: 200, body: nameResource(defined, sheet.name) };
    sheet.names = (sheet.names ?? []).filter((each) => each !== defined);
    return { status: 204 };
  }
  if (defined.box === null) {
    throw invalidArgument(`The name '${defined.name}' refers to #REF!, not to a range.`);
  }
  if (route.op === 'nameRange') {
    if (method === 'GET') return { status: 200, body: readBox(sheet, defined.box) };
    if (method !== 'PATCH') throw methodNotAllowed();
    patchRange(sheet, defined.box, body);
    return { status: 200, body: readBox(sheet, defined.box) };
  }
  return rangeAction(sheet, defined.box, route.action, body);
}

function addName(
  workbook: Workbook,
  scope: Worksheet | null,
  body: Record<string, unknown>,
): Answer {
  const name = checkName(body['name']);
  const comment = body['comment'] ?? '';
  if (typeof comment !== 'string') throw invalidArgument("The argument 'comment' is invalid.");
  const reference = parseReference(body['reference'], scope?.name);
  const target = findSheet(workbook, { quoted: true, text: reference.sheet });
  if (!target) {
    throw invalidArgument(`The argument 'reference' names no worksheet: ${reference.sheet}.`);
  }
  if (findName(workbook, scope?.id ?? null, name)) {
    throw invalidArgument(`The name '${name}' is already in use in this scope.`);
  }
  const defined: DefinedName = { name, scope: scope?.id ?? null, comment, box: reference.box };
  target.names = [...(target.names ?? []), defined];
  return { status: 200, body: nameResource(defined, target.name) };
}
