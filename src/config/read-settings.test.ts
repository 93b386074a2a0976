import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { readSettings } from './read-settings.ts';

const schema = Type.Object({
  PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535 }),
  TIMEOUT: Type.Number({ default: 30, minimum: 0 }),
  DEMO: Type.Boolean({ default: true }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  URL: Type.String({ default: 'https://example.com/', pattern: '^https?://' }),
  TOKEN: Type.Optional(Type.String({ minLength: 4 })),
  SYNC: Type.Unsafe<'full' | 'normal'>({
    type: 'string',
    enum: ['full', 'normal'],
    default: 'full',
  }),
});

test('unset variables take their defaults, and an optional one without a default stays unset', () => {
  assert.deepEqual(readSettings(schema, {}), {
    ok: true,
    settings: {
      PORT: 8080,
      TIMEOUT: 30,
      DEMO: true,
      HOST: '127.0.0.1',
      URL: 'https://example.com/',
      SYNC: 'full',
    },
  });
});

test('set variables are converted to their types; variables the schema does not name are left out', () => {
  const read = readSettings(schema, {
    PORT: '9000',
    TIMEOUT: '2.5',
    DEMO: 'false',
    HOST: 'sheets.lan',
    URL: 'http://emulator:9000/',
    TOKEN: 'ab€d',
    SYNC: 'normal',
    OTHER: 'x',
  });
  assert.deepEqual(read, {
    ok: true,
    settings: {
      PORT: 9000,
      TIMEOUT: 2.5,
      DEMO: false,
      HOST: 'sheets.lan',
      URL: 'http://emulator:9000/',
      TOKEN: 'ab€d',
      SYNC: 'normal',
    },
  });
});

test('each bad value is one problem naming the variable, phrased as JSON Schema validators do', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT must be integer'],
    [{ PORT: '' }, 'PORT must be integer'],
    [{ PORT: '   ' }, 'PORT must be integer'],
    [{ PORT: '80.5' }, 'PORT must be integer'],
    [{ PORT: 'Infinity' }, 'PORT must be integer'],
    [{ PORT: '70000' }, 'PORT must be <= 65535'],
    [{ PORT: '-1' }, 'PORT must be >= 0'],
    [{ TIMEOUT: 'soon' }, 'TIMEOUT must be number'],
    [{ DEMO: 'yes' }, 'DEMO must be boolean'],
    [{ DEMO: 'TRUE' }, 'DEMO must be boolean'],
    [{ HOST: '' }, 'HOST must NOT have fewer than 1 characters'],
    [{ TOKEN: '€€€' }, 'TOKEN must NOT have fewer than 4 characters'],
    [{ URL: 'example.com' }, 'URL must match pattern "^https?://"'],
    [{ SYNC: 'maybe' }, 'SYNC must be equal to one of the allowed values (full, normal)'],
  ];
  for (const [env, problem] of cases) {
    assert.deepEqual(readSettings(schema, env), { ok: false, problems: [problem] }, problem);
  }
});

test('every bad variable is reported, not only the first', () => {
  assert.deepEqual(readSettings(schema, { PORT: 'x', DEMO: 'y' }), {
    ok: false,
    problems: ['PORT must be integer', 'DEMO must be boolean'],
  });
});

test('a schema keyword the reader does not know is refused at once, not ignored', () => {
  const wider = Type.Object({ LIST: Type.String({ maxLength: 3 }) });
  assert.throws(
    () => readSettings(wider, {}),
    /LIST uses a schema the settings reader does not know/,
  );
  const array = Type.Object({ LIST: Type.Array(Type.String()) });
  assert.throws(() => readSettings(array, {}), /LIST/);
});
