import { useCallback, useEffect, useState } from 'preact/hooks';
import { asProblem, type ApiProblem } from '../api/problem.ts';

export interface Resource<T> {
  /** The last answer, kept while the next one loads so the screen does not flicker. */
  data: T | undefined;
  problem: ApiProblem | null;
  /** True from the render that asks for something new until its answer is in. */
  loading: boolean;
  reload: () => void;
  /** Replaces the data with what a write answered, without another request. */
  set: (data: T) => void;
}

interface Settled<T> {
  request: string;
  data: T | undefined;
  problem: ApiProblem | null;
}

/** Loads something from the API when `key` changes; an answer that arrives too late is dropped. */
export function useResource<T>(load: () => Promise<T>, key: string): Resource<T> {
  const [generation, setGeneration] = useState(0);
  const request = `${generation}:${key}`;
  const [settled, setSettled] = useState<Settled<T>>({
    request: '',
    data: undefined,
    problem: null,
  });

  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setSettled({ request, data, problem: null }),
      (error: unknown) =>
        current && setSettled((last) => ({ ...last, request, problem: asProblem(error) })),
    );
    return () => {
      current = false;
    };
    // `load` is a new closure on every render; `request` says when it asks for something else.
  }, [request]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return {
    data: settled.data,
    problem: settled.problem,
    loading: settled.request !== request,
    reload,
    set: (data: T) => setSettled({ request, data, problem: null }),
  };
}
