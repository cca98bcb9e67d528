import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Stops every read under `keys` that is still in flight, because it may have been answered before a
 * write committed and would land that older state over it. Each stopped query goes back to what it held
 * before that read; the keys of those stopped are returned, to be asked again.
 */
export async function stopReadsInFlight(queryClient: QueryClient, keys: QueryKey[]): Promise<QueryKey[]> {
  const cache = queryClient.getQueryCache();
  const stopped = keys.flatMap((queryKey) =>
    cache.findAll({ queryKey, fetchStatus: "fetching" }).map((query) => query.queryKey),
  );
  await Promise.all(keys.map((queryKey) => queryClient.cancelQueries({ queryKey })));
  return stopped;
}

/**
 * After a write: every query under `keys` is read again. Invalidating alone is not enough: a query whose
 * first read is still in flight (an item opened a moment ago) is handed that very read again, answered
 * before the write, and would keep it as fresh. Such reads are stopped first, then all are asked anew.
 */
export async function rereadAfterWrite(queryClient: QueryClient, keys: QueryKey[]): Promise<void> {
  await stopReadsInFlight(queryClient, keys);
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
