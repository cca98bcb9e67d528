import { formatUsdForPeople, parseUsd } from "@/lib/money";

/** A USD decimal string as people read it, with the currency: "0.5" → "0.50 USD"; "—" when absent. */
export function usdLabel(value: string | null | undefined): string {
  const micro = value == null ? null : parseUsd(value.trim());
  return micro === null ? "—" : `${formatUsdForPeople(micro)} USD`;
}
