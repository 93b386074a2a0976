/**
 * A fuzz run over the row API with keys of random scopes: generated writes (every method, rows
 * chosen by `_id`, by filters, by `_or`, upserts, bodies right and wrong) are sent with a key of
 * a random set of scopes, and each answer is held to one rule: a key that lacks a scope the
 * write needs is refused with 403 naming a missing scope, and the rows are as they were. The
 * scopes a write needs are worked out here from what the docs say, not by the server's code.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { build, call } from './helpers/build.ts';

const adminToken = 'scope-fuzz-admin-token-0123456789';
const admin = { authorization: `Bearer ${adminToken}` };
const scopes = ['read', 'create', 'update', 'delete'] as const;
type Scope = (typeof scopes)[number];

/** Every non-empty set of scopes. */
const scopeSets: Scope[][] = Array.from({ length: 15 }, (_, n) =>
  scopes.filter((_, bit) => ((n + 1) >> bit) & 1),
);

interface Write {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query: Record<string, string>;
  body: unknown;
}

/** What the docs say a write needs: its method's scope, and read when it chooses by value. */
function needs({ method, query }: Write): Scope[] {
  const byValue = Object.keys(query).some((name) => name !== '_id');
  if (method === 'POST') return '_upsert' in query ? ['create', 'update', 'read'] : ['create'];
  const own: Scope = method === 'DELETE' ? 'delete' : 'update';
  return byValue ? [own, 'read'] : [own];
}

const names = fc.constantFrom('Ann', 'Bob', 'Cy', 'Dee');
const rowBody = fc.oneof(
  fc.record({ name: names, note: fc.string({ maxLength: 4 }) }, { requiredKeys: [] }),
  fc.constant({ nickname: 'x' }),
  fc.constant('not a row'),
);
const selection = fc.oneof(
  fc.nat(30).map((id) => ({ _id: String(id) })),
  names.map((name) => ({ name })),
  fc.constantFrom('__ilike(a*)', '__gt(B)', '__neq(Cy)').map((filter) => ({ name: filter })),
  fc.tuple(names, names).map(([a, b]) => ({ _or: `name=${a}|name=${b}` })),
  fc.constant({}),
);
const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    method: fc.constant('POST' as const),
    query: fc.constantFrom<Record<string, string>[]>({}, { _upsert: 'name' }),
    body: fc.oneof(rowBody, fc.array(rowBody, { maxLength: 3 })),
  }),
  fc.record({
    method: fc.constantFrom('PUT' as const, 'PATCH' as const),
    query: selection,
    body: rowBody,
  }),
  fc.record({
    method: fc.constant('DELETE' as const),
    query: selection,
    body: fc.constant(undefined),
  }),
);

test('a fuzz run with keys of random scopes finds no write by a key that lacks a scope it needs', async (t) => {
  const { url } = await build(t, { adminToken });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: {
      name: 'people',
      columns: ['name', 'note'],
      rows: Array.from({ length: 40 }, (_, i) => ({
        name: ['Ann', 'Bob', 'Cy', 'Dee'][i % 4],
        note: String(i),
      })),
    },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const rows = `${url}/api/v1/${id}`;
  const keys = new Map<string, string>();
  for (const set of scopeSets) {
    const made = await call(`${url}/admin/v1/sheets/${id}/keys`, {
      method: 'POST',
      headers: admin,
      body: { scopes: set },
    });
    assert.equal(made.status, 201, made.text);
    keys.set(set.join(), (made.body as { key: string }).key);
  }
  const read = async () => (await call(rows, { headers: admin })).text;
  let refused = 0;
  let applied = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...scopeSets), write, async (held, sent) => {
      const before = await read();
      const query = new URLSearchParams(sent.query).toString();
      const reply = await call(`${rows}${query === '' ? '' : `?${query}`}`, {
        method: sent.method,
        headers: { 'x-api-key': keys.get(held.join()) ?? '' },
        body: sent.body,
      });
      const after = await read();
      const missing = needs(sent).filter((scope) => !held.includes(scope));
      assert.ok(reply.status < 500, reply.text);
      if (missing.length > 0) {
        refused += 1;
        assert.equal(
          reply.status,
          403,
          `${sent.method} ?${query} with ${held.join()}: ${reply.text}`,
        );
        assert.ok(missing.includes((reply.body as { scope: Scope }).scope), reply.text);
        assert.equal(after, before, 'a refused write changed nothing');
      } else if (after !== before) {
        applied += 1;
        assert.ok(reply.status < 300, reply.text);
      }
    }),
    { numRuns: 200 },
  );
  // The run tried both sides of the rule.
  assert.ok(refused > 20 && applied > 5, `refused ${refused}, applied ${applied}`);
});
