import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import { LineBatch } from './line-batch.ts';

function recorder() {
  const writes: string[] = [];
  let flushes = 0;
  const sink = {
    write: (text: string) => writes.push(text),
    flushSync: () => void flushes++,
  };
  return { sink, writes, flushes: () => flushes };
}

test("a turn's lines reach the sink once that turn's callbacks have run, joined in order", async () => {
  const { sink, writes } = recorder();
  const batch = new LineBatch(sink);
  batch.write('a\n');
  batch.write('b\n');
  await Promise.resolve();
  batch.write('c\n');
  assert.deepEqual(writes, [], 'nothing is written within the turn');
  await turn();
  assert.deepEqual(writes, ['a\nb\nc\n']);
  batch.write('d\n');
  await turn();
  await turn();
  assert.deepEqual(writes, ['a\nb\nc\n', 'd\n'], 'a later turn is a write of its own');
});

test('flushSync writes what waits at once, then flushes the sink', async () => {
  const { sink, writes, flushes } = recorder();
  const batch = new LineBatch(sink);
  batch.write('a\n');
  batch.flushSync();
  assert.deepEqual(writes, ['a\n']);
  assert.equal(flushes(), 1);
  await turn();
  assert.deepEqual(writes, ['a\n'], 'the turn has nothing left to write');
});

const lineBatch = fileURLToPath(new URL('./line-batch.ts', import.meta.url));

for (const [ending, code] of [
  ['process.exit(3)', 3],
  ['throw new Error("boom")', 1],
] as const) {
  test(`lines of the last turn reach stdout when the process ends with ${ending}`, () => {
    const script = `import { stdoutLines } from ${JSON.stringify(lineBatch)};
      const lines = stdoutLines();
      lines.write('first\\n');
      setImmediate(() => { lines.write('second\\n'); lines.write('third\\n'); ${ending}; });`;
    let stdout = '';
    let status = 0;
    try {
      stdout = execFileSync(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
    } catch (error) {
      ({ stdout, status } = error as { stdout: string; status: number });
    }
    assert.equal(status, code);
    assert.equal(stdout, 'first\nsecond\nthird\n');
  });
}
