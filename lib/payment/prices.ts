export { formatUsd, parseUsd, toAssetUnits } from "@/lib/money";

/** Prices in micro-USD (see lib/money.ts). */
export const PRICES = {
  register: 1_000_000n,
  feedback: 10_000n,
} as const;
