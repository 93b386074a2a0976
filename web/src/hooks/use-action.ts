import { useState } from 'preact/hooks';
import { asProblem, type ApiProblem } from '../api/problem.ts';

export interface Action {
  busy: boolean;
  /** What the last attempt failed with, shown next to the control that made it. */
  problem: ApiProblem | null;
  /** Runs a request; answers whether it succeeded. */
  run: (action: () => Promise<void>) => Promise<boolean>;
  clear: () => void;
}

/** The state of one thing a person can do that calls the API: a form, a switch, a button. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await action();
      return true;
    } catch (error) {
      setProblem(asProblem(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, run, clear: () => setProblem(null) };
}
