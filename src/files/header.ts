import { cellText, isStorableText, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';

/** `0 -> A`, `25 -> Z`, `26 -> AA`: how a spreadsheet names the column at a position. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

export interface CellProblem {
  cell: string;
  problem: string;
}

/**
 * Turns a header row into column names. Empty names and repeated names are refused, every
 * offending cell named in A1 notation, since a column without a unique name cannot be addressed.
 */
export function columnsFromHeader(
  header: Cell[],
  { trailingEmpty }: { trailingEmpty: 'ignore' | 'refuse' } = { trailingEmpty: 'ignore' },
): string[] {
  // In a file, empty cells right of the header are not columns unless data sits below them.
  let width = header.length;
  while (
    trailingEmpty === 'ignore' &&
    width > 0 &&
    cellText(header[width - 1] ?? null).trim() === ''
  ) {
    width--;
  }
  const names = header.slice(0, width).map((cell) => cellText(cell ?? null));
  const problems: CellProblem[] = [];
  const firstSeen = new Map<string, number>();
  names.forEach((name, index) => {
    const cell = `${columnLetter(index)}1`;
    if (!isStorableText(name)) {
      problems.push({ cell, problem: 'holds a NUL character or a lone surrogate' });
      return;
    }
    if (name.trim() === '') {
      problems.push({ cell, problem: 'is empty; every column needs a name' });
      return;
    }
    const earlier = firstSeen.get(name);
    if (earlier !== undefined) {
      problems.push({
        cell,
        problem: `repeats "${name}", already the name of ${columnLetter(earlier)}1`,
      });
      return;
    }
    firstSeen.set(name, index);
  });
  if (width === 0)
    problems.push({ cell: 'A1', problem: 'is empty: the first row must name the columns' });
  if (problems.length > 0) throw headerProblem(problems);
  return names;
}

export function headerProblem(cells: CellProblem[]): Problem {
  const shown = cells.slice(0, 10).map((c) => `${c.cell} ${c.problem}`);
  const more = cells.length > shown.length ? ` (and ${cells.length - shown.length} more)` : '';
  return new Problem(
    'invalid-header',
    `The header row is not usable: ${shown.join('; ')}${more}.`,
    {
      cells,
    },
  );
}

/** A data row wider than the header has a value in a column with no name. */
export function checkRowWidth(row: Cell[], width: number, rowNumber: number): void {
  for (let i = width; i < row.length; i++) {
    if (row[i] !== null && row[i] !== undefined) {
      throw headerProblem([
        {
          cell: `${columnLetter(i)}${rowNumber}`,
          problem: `holds a value but column ${columnLetter(i)} has no name in the header row`,
        },
      ]);
    }
  }
}
