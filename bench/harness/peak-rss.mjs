// Preloaded with `node --import` into the process being measured: prints its peak resident set
// size at exit. Plain JavaScript on purpose, so that no TypeScript loader runs in that process
// and adds to the very memory being measured.
import process from 'node:process';

process.on('exit', () => {
  process.stderr.write(`\npeak-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
