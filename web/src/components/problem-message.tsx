import type { ApiProblem } from '../api/problem.ts';

interface Props {
  problem: ApiProblem | null;
  /** For `aria-describedby` on the control that failed. */
  id?: string;
  /** Names the header cells of an `invalid-header` problem, e.g. by the column typed there. */
  describeCell?: (cell: string) => string;
}

/** A failed request, shown as its problem document says, next to what failed. */
export function ProblemMessage({ problem, id, describeCell }: Props) {
  if (problem === null) return null;
  const { title, detail, cells, code } = problem.document;
  return (
    <div class="problem" role="alert" id={id}>
      <p>
        <strong>{title}.</strong> {detail} <span class="problem-code">({code})</span>
      </p>
      {cells !== undefined && cells.length > 0 && (
        <ul class="cell-problems" aria-label="Cells to fix">
          {cells.map(({ cell, problem: text }) => (
            <li key={cell}>
              <code>{cell}</code> {describeCell?.(cell)} {text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
