import { QueryClient } from '@tanstack/react-query';

/**
 * The portal's one query cache (TanStack Query). A read shows at once what was last read for the same key and
 * is refetched when its page opens; a failed read shows its error at once (no retries: the API's answer is the
 * message); nothing refetches on window focus. Cleared when the session ends, so no one reads another's data.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});
