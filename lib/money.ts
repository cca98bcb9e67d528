/**
 * Money, in one place and in integers: amounts are micro-USD (`bigint`, 6 decimals, the unit of both
 * USDC and USDC.e); text is a plain decimal string of USD ("0.5", "2", "0.000001"). No float ever
 * holds an amount. Used by the server and the browser alike.
 */

/** Decimals of a micro-USD amount. */
const USD_DECIMALS = 6;

/** A USD decimal string: 1 to 12 whole digits, at most 6 decimals, nothing else. */
export const USD_PATTERN = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

const ONE_USD = 10n ** BigInt(USD_DECIMALS);

/** Parses a USD decimal string ("0.5", "2", "0.000001") into micro-USD; null when it is not one. */
export function parseUsd(value: string): bigint | null {
  const match = USD_PATTERN.exec(value);
  if (!match) return null;
  return BigInt(match[1]!) * ONE_USD + BigInt((match[2] ?? "").padEnd(USD_DECIMALS, "0"));
}

/** Micro-USD as a USD decimal string without trailing zeros ("0.01", "1", "1.5"): the API's form. */
export function formatUsd(micro: bigint): string {
  const frac = (micro % ONE_USD).toString().padStart(USD_DECIMALS, "0").replace(/0+$/, "");
  return frac ? `${micro / ONE_USD}.${frac}` : `${micro / ONE_USD}`;
}

/** Micro-USD with at least two decimals ("0.50", "1.00", "0.000001"): the form people read. */
export function formatUsdForPeople(micro: bigint): string {
  const frac = (micro % ONE_USD).toString().padStart(USD_DECIMALS, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${micro / ONE_USD}.${frac}`;
}

/** Converts micro-USD to an asset's base units (USDC has 6 decimals, but a deployment may differ). */
export function toAssetUnits(micro: bigint, decimals: number): bigint {
  return decimals >= USD_DECIMALS
    ? micro * 10n ** BigInt(decimals - USD_DECIMALS)
    : micro / 10n ** BigInt(USD_DECIMALS - decimals);
}
