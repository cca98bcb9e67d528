import { TRANSFER_DAYS } from "@/lib/schemas/members";

const DAY_MS = 86_400_000;

/** When a transfer proposed at `proposedAt` lapses. */
export const transferExpiry = (proposedAt: Date) => new Date(proposedAt.getTime() + TRANSFER_DAYS * DAY_MS);

/** A namespace's transfer still waiting for its new owner, or null (none, or lapsed). */
export function pendingTransferOf(
  ns: { transferTo: string | null; transferProposedAt: Date | null },
  now = new Date(),
) {
  if (ns.transferTo === null || ns.transferProposedAt === null) return null;
  const expiresAt = transferExpiry(ns.transferProposedAt);
  if (expiresAt <= now) return null;
  return {
    to: ns.transferTo,
    proposedAt: ns.transferProposedAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
}
