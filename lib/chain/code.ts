import type { Hex } from "viem";

type GetCode = (args: { address: `0x${string}` }) => Promise<Hex | undefined>;

/** How long another address's code is kept, and how many addresses at most. */
const BRIEF_MS = 5_000;
const BRIEF_MAX = 1_000;

/**
 * getCode that keeps a `stable` address's (the token's) code once non-empty, as the x402 facilitator asks on
 * every settlement, and any other for `ttlMs`: a stale wallet answer only picks the wrong off-chain signature
 * check, and the token checks again on chain (worst case, a revert). Failures are never kept.
 */
export function cachingGetCode(
  getCode: GetCode,
  stable: readonly string[],
  { ttlMs = BRIEF_MS, max = BRIEF_MAX, now = Date.now } = {},
): GetCode {
  const keep = new Set(stable.map((a) => a.toLowerCase()));
  const known = new Map<string, Promise<Hex | undefined>>();
  const brief = new Map<string, { code: Promise<Hex | undefined>; until: number }>();
  return (args) => {
    const key = args.address.toLowerCase();
    if (!keep.has(key)) {
      const kept = brief.get(key);
      if (kept && kept.until > now()) return kept.code;
      brief.delete(key);
      // The oldest entry goes first: entries are added in time order, so it is also the first to lapse.
      if (brief.size >= max) brief.delete(brief.keys().next().value as string);
      const code = getCode(args);
      const entry = { code, until: now() + ttlMs };
      brief.set(key, entry);
      code.catch(() => brief.get(key) === entry && brief.delete(key));
      return code;
    }
    let pending = known.get(key);
    if (!pending) {
      pending = getCode(args);
      known.set(key, pending);
      const forget = () => known.delete(key);
      pending.then((code) => (!code || code === "0x") && forget(), forget);
    }
    return pending;
  };
}
