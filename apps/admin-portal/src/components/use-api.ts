import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * A read of the page, cached by `key` (name it after the resource first, then the inputs the read depends on):
 * run when the page opens and when the key changes; until a new key's answer arrives the previous answer stays
 * shown. `reload` (after a write) refreshes every read of the resource, so other pages' pickers and lists of it
 * do not show the old answer.
 */
export function useApi<T>(key: QueryKey, load: () => Promise<T>): Loaded<T> {
  const client = useQueryClient();
  const query = useQuery({ queryKey: key, queryFn: load, placeholderData: keepPreviousData });
  return {
    data: query.data,
    error: query.error ?? undefined,
    loading: query.isFetching,
    reload: () => void client.invalidateQueries({ queryKey: key.slice(0, 1) }),
  };
}
