import { excerpt } from '../errors/excerpt.ts';

/** A filter as a problem repeats it: an excerpt of its column and of its value. */
export function shown(column: string, raw: string): string {
  return `${excerpt(column)}=${excerpt(raw)}`;
}
