import type { Hash, TestClient } from "viem";

/**
 * The hash of the one transaction waiting for a block on a devnet whose automine is off (a facilitator's
 * settlement, broadcast and unmined). Up to 15 s: a facilitator process on a busy machine may take seconds
 * to broadcast.
 */
export async function waitingTransaction(chain: Pick<TestClient, "getTxpoolContent">): Promise<Hash> {
  for (let tries = 0; tries < 300; tries++) {
    const pending = await chain.getTxpoolContent();
    const [hash] = Object.values(pending.pending).flatMap((byNonce) =>
      Object.values(byNonce).map((tx) => tx.hash),
    );
    if (hash) return hash;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no transaction is waiting for a block");
}
