// Registered with `node --import`: writes the URL of every module loaded to RECORD_IMPORTS_FILE.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.RECORD_IMPORTS_FILE, url + '\\n');
  return next(url, context);
}
export async function resolve(specifier, context, next) {
  return next(specifier, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
