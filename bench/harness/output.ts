/** Results go to stdout, so that `npm run bench > results.txt` keeps only them; progress to stderr. */
export const print = (line = ''): void => void process.stdout.write(`${line}\n`);
export const log = (line: string): void => void process.stderr.write(`${line}\n`);
