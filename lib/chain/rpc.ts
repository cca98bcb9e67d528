import "server-only";
import { type HttpTransportConfig, http } from "viem";

type Fetch = typeof fetch;

/**
 * The runtime's own fetch. Inside a request, Next.js replaces the global fetch with a wrapper that
 * tracks and may cache each call; chain RPC is never cacheable, and a paid call makes about eleven of
 * them (verify, simulate, send, receipt), so the wrapper alone cost about a millisecond of CPU per
 * paid call. Next.js keeps the original on the wrapper for callers like this one.
 */
const runtimeFetch: Fetch = (input, init) => {
  const current = globalThis.fetch as Fetch & { _nextOriginalFetch?: Fetch };
  return (current._nextOriginalFetch ?? current)(input, init);
};

/** viem's HTTP transport for a chain's JSON-RPC, over the runtime's own fetch. */
export function rpcTransport(url: string, config: Omit<HttpTransportConfig, "fetchFn"> = {}) {
  return http(url, { ...config, fetchFn: runtimeFetch });
}
