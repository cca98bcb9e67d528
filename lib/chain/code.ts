import type { Hex } from "viem";

type GetCode = (args: { address: `0x${string}` }) => Promise<Hex | undefined>;

/**
 * getCode that remembers the code of `stable` addresses (the configured token) once it is non-empty: a
 * deployed contract stays deployed, and the x402 facilitator asks for it on every settlement. Other
 * addresses (payers' wallets can gain or change code), empty answers and failures are always asked anew.
 */
export function cachingGetCode(getCode: GetCode, stable: readonly string[]): GetCode {
  const keep = new Set(stable.map((a) => a.toLowerCase()));
  const known = new Map<string, Promise<Hex | undefined>>();
  return (args) => {
    const key = args.address.toLowerCase();
    if (!keep.has(key)) return getCode(args);
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
