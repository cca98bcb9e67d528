/** Prices in USD micro-units (6 decimals), the unit of both USDC and USDC.e. */
export const USD_DECIMALS = 6;
export const PRICES = {
  register: 1_000_000n,
  feedback: 10_000n,
} as const;

/** Formats micro-units as a USD decimal string without trailing zeros ("0.01", "1", "1.5"). */
export function formatUsd(micro: bigint): string {
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(USD_DECIMALS, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** Parses a USD decimal string ("0.5", "2", "0.000001") into micro-units; null when it is not one. */
export function parseUsd(value: string): bigint | null {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(value);
  if (!match) return null;
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? "").padEnd(USD_DECIMALS, "0"));
}

/** Converts micro-USD to an asset's base units (USDC has 6 decimals, but a deployment may differ). */
export function toAssetUnits(micro: bigint, decimals: number): bigint {
  return decimals >= USD_DECIMALS
    ? micro * 10n ** BigInt(decimals - USD_DECIMALS)
    : micro / 10n ** BigInt(USD_DECIMALS - decimals);
}
