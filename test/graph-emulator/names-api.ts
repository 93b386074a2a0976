/**
 * The workbook API on defined names: list, add, get and delete a name of the workbook, and
 * read, write, insert or delete the cells it refers to, wherever they moved.
 */
import type { Workbook } from './drive.ts';
import { invalidArgument, methodNotAllowed, workbookItemNotFound } from './errors.ts';
import { checkName, nameResource, parseReference, type DefinedName } from './names.ts';
import { patchRange } from './range-write.ts';
import type { NameRoute } from './routes.ts';
import { findSheet, rangeAction, readBox, type Answer } from './workbook-api.ts';
import type { Worksheet } from './worksheet.ts';

interface Found {
  defined: DefinedName;
  sheet: Worksheet;
}

/** Every name of the workbook, with the worksheet its cells are on. */
function namesOf(workbook: Workbook): Found[] {
  return workbook.worksheets.flatMap((sheet) =>
    (sheet.names ?? []).map((defined) => ({ defined, sheet })),
  );
}

/** A name of the workbook, compared without case as Excel compares names. */
export function findName(workbook: Workbook, name: string): Found | undefined {
  const lower = name.toLowerCase();
  return namesOf(workbook).find((each) => each.defined.name.toLowerCase() === lower);
}

export function runOnNames(
  workbook: Workbook,
  route: NameRoute,
  method: string,
  body: Record<string, unknown>,
): Answer {
  if (route.op === 'names') {
    const value = namesOf(workbook).map(({ defined, sheet }) => nameResource(defined, sheet.name));
    return { status: 200, body: { value } };
  }
  if (route.op === 'nameAdd') return addName(workbook, body);
  const found = findName(workbook, route.name);
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

function addName(workbook: Workbook, body: Record<string, unknown>): Answer {
  const name = checkName(body['name']);
  const comment = body['comment'] ?? '';
  if (typeof comment !== 'string') throw invalidArgument("The argument 'comment' is invalid.");
  const reference = parseReference(body['reference']);
  const target = findSheet(workbook, { quoted: true, text: reference.sheet });
  if (!target) {
    throw invalidArgument(`The argument 'reference' names no worksheet: ${reference.sheet}.`);
  }
  if (findName(workbook, name)) {
    throw invalidArgument(`The name '${name}' is already in use in this workbook.`);
  }
  const defined: DefinedName = { name, comment, box: reference.box };
  target.names = [...(target.names ?? []), defined];
  return { status: 200, body: nameResource(defined, target.name) };
}
