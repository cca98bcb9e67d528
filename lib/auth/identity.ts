import type { Identity } from "@/lib/schemas/session";

/**
 * Who calls a verb: a verified identity, or a bare address, which stands for a plain key (the service's
 * own callers and tests).
 */
export type Who = Pick<Identity, "address" | "contractOn"> | string;

/** The address and the contract chain of a caller. */
export function whoOf(who: Who): { address: string; contractOn: string | null } {
  return typeof who === "string" ? { address: who, contractOn: null } : who;
}

/**
 * Whether a caller holds a record (an owner, a submitter): the same address, unless both are contract wallets
 * proven on different chains, as a contract's address on another chain may be another deployment with other
 * owners (a plain key's address is its own on every chain).
 */
export function isHolder(who: Who, address: string | null, contractOn: string | null): boolean {
  const me = whoOf(who);
  if (address === null || me.address.toLowerCase() !== address.toLowerCase()) return false;
  return me.contractOn === null || contractOn === null || me.contractOn === contractOn;
}
