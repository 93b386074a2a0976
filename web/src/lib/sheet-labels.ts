import type { AccessMode, SheetSource } from '../api/types.ts';

/** Words the console uses for a sheet's facts, in one place. */

export function sourceLabel(source: SheetSource): string {
  // Named as the server names it when it is a provider this console was built without.
  const provider: string = source.provider;
  switch (source.provider) {
    case 'scratch':
      return 'Scratch';
    case 'upload':
      return `Upload: ${source.fileName}${source.tab ? ` (${source.tab})` : ''}`;
    case 'google':
      return `Google: ${source.tab}`;
    case 'excel':
      return `Excel: ${source.tab}`;
    default:
      return provider;
  }
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function timeLabel(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export const accessLabels: Record<AccessMode, { name: string; explains: string }> = {
  open: { name: 'Open', explains: 'Anyone can read and write rows, without a key.' },
  'public-read': {
    name: 'Public read',
    explains: 'Anyone can read rows; writing needs an API key.',
  },
  private: { name: 'Private', explains: 'Every request needs an API key of this sheet.' },
};

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
