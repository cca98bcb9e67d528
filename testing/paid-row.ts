import { randomBytes } from "node:crypto";
import type { DbOrTx } from "@/lib/db/client";
import { claimPayment, requestHashOf } from "@/lib/payment/ledger";
import type { PaidContext } from "@/lib/payment/types";

/**
 * A claimed ledger row the way a settled payment leaves it, for a paid write a domain test commits itself
 * (an MPP payment of 0.01 USD by `payer`), with `reserve` run in the claim's transaction as the pipeline does.
 */
export async function paidRow(
  db: DbOrTx,
  operation: string,
  payer: `0x${string}`,
  reserve?: Parameters<typeof claimPayment>[1]["reserve"],
): Promise<PaidContext> {
  const key = `test:${randomBytes(8).toString("hex")}`;
  const claimed = await claimPayment(db, {
    payment: {
      protocol: "mpp",
      paymentKey: key,
      payer,
      payerContractOn: null,
      amount: "10000",
      asset: "0x20c000000000000000000000b9537d11c60e8b50",
      network: "eip155:4217",
      payTo: "0x00000000000000000000000000000000000000d1",
      expiresAt: new Date(Date.now() + 60_000),
    },
    operation,
    lockKey: null,
    request: {},
    requestHash: requestHashOf(key),
    reserve,
  });
  if (!claimed.ok) throw new Error("the claim was refused");
  return {
    db,
    paymentId: claimed.paymentId,
    txRef: `0x${"ab".repeat(32)}`,
    payer,
    protocol: "mpp",
    payerContractOn: null,
  };
}
