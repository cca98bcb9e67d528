export { formatUsd, parseUsd, toAssetUnits } from "@/lib/money";

/** Prices in micro-USD (see lib/money.ts). */
export const PRICES = {
  register: 1_000_000n,
  feedback: 10_000n,
  /** An answer to an owner's question costs what a submission does. */
  followUp: 10_000n,
} as const;
