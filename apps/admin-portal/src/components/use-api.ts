import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs a read when the page opens (and when `deps` change); a newer run's answer replaces an older one. */
export function useApi<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const run = useRef(0);
  const stableLoad = useCallback(load, deps);

  const reload = useCallback(() => {
    const id = ++run.current;
    setLoading(true);
    stableLoad().then(
      (value) => {
        if (id !== run.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (id !== run.current) return;
        setError(failure instanceof Error ? failure : new Error(String(failure)));
        setLoading(false);
      },
    );
  }, [stableLoad]);

  useEffect(() => {
    reload();
    return () => {
      run.current++;
    };
  }, [reload]);

  return { data, error, loading, reload };
}
