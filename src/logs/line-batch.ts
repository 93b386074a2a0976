import { destination } from 'pino';

/** Where a batch's lines go: pino's destination, which writes each call at once (`sync`). */
export interface LineSink {
  write(text: string): unknown;
  flushSync(): void;
}

/**
 * Log lines gathered over one turn of the event loop and handed to `sink` joined, in the order
 * written: a busy server answers many requests a turn. Handed on one by one, each line cost the
 * asynchronous destination used before as much as an uncached read's index lookup (it measured
 * everything it held again for every line), and would cost a synchronous one a write of its own.
 * The lines of a turn are written once its callbacks have run, and those of the turn that ends
 * the process on its way out (see `stdoutLines`); a process killed outright (SIGKILL) loses at
 * most one turn's lines.
 */
export class LineBatch {
  #lines: string[] = [];
  readonly #sink: LineSink;

  constructor(sink: LineSink) {
    this.#sink = sink;
  }

  write(line: string): void {
    if (this.#lines.push(line) === 1) setImmediate(this.#flush);
  }

  /** What pino calls before a fatal line ends the process, and what the process's end calls. */
  flushSync(): void {
    this.#flush();
    this.#sink.flushSync();
  }

  readonly #flush = (): void => {
    if (this.#lines.length === 0) return;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#sink.write(text);
  };
}

let stdout: LineBatch | undefined;

/**
 * The process's one batch of lines to stdout, written at once as each turn ends (pino's
 * destination in `sync` mode: no line waits in memory for a slow reader of the pipe), and
 * whatever is left when the process exits.
 */
export function stdoutLines(): LineBatch {
  if (stdout === undefined) {
    const batch = new LineBatch(destination({ dest: 1, sync: true }));
    process.on('exit', () => batch.flushSync());
    stdout = batch;
  }
  return stdout;
}
