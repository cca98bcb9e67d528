/** Parses a USD decimal string ("0.5", "2", "0.000001") into micro-USD; null when it is not one. */
export function parseUsd(value: string): bigint | null {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!match) return null;
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? "").padEnd(6, "0"));
}

/** Micro-USD as a decimal string with at least two decimals ("0.50", "1.00", "0.000001"). */
export function microToUsd(micro: bigint): string {
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${whole}.${frac}`;
}

/** A USD decimal string for people: "0.5" → "0.50 USD". */
export function formatUsd(value: string | null | undefined): string {
  const micro = value == null ? null : parseUsd(value);
  return micro === null ? "—" : `${microToUsd(micro)} USD`;
}
