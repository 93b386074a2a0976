import type { components } from './openapi.ts';

/** One offending cell of a refused header row. */
export interface HeaderCellProblem {
  cell: string;
  problem: string;
}

/**
 * An RFC 9457 problem document, as every Sheetport error is answered, and as the console makes
 * one for a failure of its own (an unreachable server), which has no `type`. The document leaves
 * a problem's extensions open, as they vary by code: the ones the console reads are named here.
 */
export interface ProblemDocument extends Pick<
  components['schemas']['Problem'],
  'title' | 'status' | 'detail' | 'code'
> {
  /** For `invalid-header`: each offending cell. */
  cells?: HeaderCellProblem[];
  /** For an unknown tab: the tabs there are. */
  tabs?: string[];
  [extension: string]: unknown;
}

/** A failed request, carrying the problem document the console shows next to what failed. */
export class ApiProblem extends Error {
  constructor(readonly document: ProblemDocument) {
    super(document.detail);
    this.name = 'ApiProblem';
  }

  get code(): string {
    return this.document.code;
  }

  get status(): number {
    return this.document.status;
  }
}

/** Reads the problem document of a failed answer; an answer without one is described plainly. */
export function problemOf(
  status: number,
  statusText: string,
  type: string,
  text: string,
): ApiProblem {
  if (type.includes('json')) {
    try {
      const document = JSON.parse(text) as Partial<ProblemDocument>;
      if (typeof document.detail === 'string') {
        return new ApiProblem({
          ...document,
          title: document.title ?? statusText,
          status: document.status ?? status,
          detail: document.detail,
          code: document.code ?? `http-${status}`,
        });
      }
    } catch {
      // Not JSON after all: described below.
    }
  }
  return new ApiProblem({
    title: statusText,
    status,
    detail: `The server answered ${status} ${statusText} without saying why.`,
    code: `http-${status}`,
  });
}

/** A request that never got an answer: the server is down or the network is gone. */
export function unreachable(error: unknown): ApiProblem {
  const reason = error instanceof Error ? ` (${error.message})` : '';
  return new ApiProblem({
    title: 'Server unreachable',
    status: 0,
    detail: `The server could not be reached${reason}. Check that Sheetport is running, then try again.`,
    code: 'network',
  });
}

/** Any error as a problem document, so every failure is shown the same way. */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem({
    title: 'Console error',
    status: 0,
    detail: error instanceof Error ? error.message : String(error),
    code: 'console-error',
  });
}
