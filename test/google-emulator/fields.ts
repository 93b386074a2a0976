/**
 * The `fields` system parameter (partial response): `a,b(c,d/e),f/g`, `*`. The answer keeps only
 * the fields named, so code that forgets to ask for a field finds it missing here as on Google.
 * Unknown paths select nothing instead of being refused as Google refuses them.
 */
import { invalidArgument } from './errors.ts';

/** Selected sub-fields by name; `true` keeps the whole value. */
export type FieldMask = Map<string, FieldMask | true>;

export function parseFields(text: string): FieldMask {
  let position = 0;
  const fail = (): Error =>
    invalidArgument(`Invalid field selection ${text} at position ${position}.`);

  const parseList = (): FieldMask => {
    const mask: FieldMask = new Map();
    for (;;) {
      const path: string[] = [];
      for (;;) {
        const name = /^[A-Za-z0-9_*@.]+/.exec(text.slice(position))?.[0];
        if (!name) throw fail();
        position += name.length;
        path.push(...name.split('.'));
        if (text[position] !== '/') break;
        position++;
      }
      let leaf: FieldMask | true = true;
      if (text[position] === '(') {
        position++;
        leaf = parseList();
        if (text[position] !== ')') throw fail();
        position++;
      }
      merge(mask, path, leaf);
      if (text[position] !== ',') return mask;
      position++;
    }
  };

  const mask = parseList();
  if (position !== text.length) throw fail();
  return mask;
}

function merge(mask: FieldMask, path: string[], leaf: FieldMask | true): void {
  const [name, ...rest] = path;
  if (name === undefined) return;
  const existing = mask.get(name);
  if (rest.length === 0) {
    if (existing === true || leaf === true) mask.set(name, true);
    else mask.set(name, new Map([...(existing ?? new Map()), ...leaf]));
    return;
  }
  if (existing === true) return;
  const inner: FieldMask = existing ?? new Map();
  mask.set(name, inner);
  merge(inner, rest, leaf);
}

/** Keeps the selected fields of a JSON value; arrays are filtered element by element. */
export function selectFields(value: unknown, mask: FieldMask): unknown {
  if (Array.isArray(value)) return value.map((item) => selectFields(item, mask));
  if (typeof value !== 'object' || value === null) return value;
  if (mask.get('*') === true) return value;
  const selected: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const sub = mask.get(key) ?? mask.get('*');
    if (sub === undefined) continue;
    selected[key] = sub === true ? item : selectFields(item, sub);
  }
  return selected;
}
