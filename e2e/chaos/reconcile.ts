import { createPublicClient, type Hash, type Hex, hexToString, http, keccak256, stringToHex } from "viem";
import { getLogs, getTransactionReceipt } from "viem/actions";
import { Abis } from "viem/tempo";
import { authorizationUsedEvent, eip3009Abi } from "../../lib/chain/eip3009";
import type { feedback, namespaces, payments, payouts } from "../../lib/db/schema";
import { paysChallenge } from "../../lib/payment/mpp-proof";
import { provesPayment } from "../../lib/payment/x402-proof";
import type { DevnetInfo } from "../../scripts/devnet/start-devnet";
import type { Logical } from "./workload";

export type Ledger = {
  payments: (typeof payments.$inferSelect)[];
  items: Pick<typeof feedback.$inferSelect, "id" | "paymentId" | "resolved" | "resolvingPaymentId">[];
  namespaces: Pick<typeof namespaces.$inferSelect, "name" | "paymentId">[];
  payouts: (typeof payouts.$inferSelect)[];
};

/** What the chains and the database say together; every count but the first three must be zero. */
export type Reconciliation = {
  chargesOnChain: number;
  writesStored: number;
  refunds: number;
  /** Money that reached the service with no stored write (and no refund) for it. */
  lostWrites: number;
  /** A write stored, or a ledger row fulfilled, without a transfer on chain that proves its payment. */
  unpaidStores: number;
  /** One agent request whose money moved more than once. */
  doubleCharges: number;
  /** More reward transfers for an item than paid payouts; more than one refund for a payment. */
  doublePayouts: number;
  doubleRefunds: number;
  /** Claims still claimed or settled, payouts still owed or being refunded. */
  openClaims: number;
  openPayouts: number;
  details: string[];
};

const tip20TransferWithMemo = Abis.tip20.find((x) => x.type === "event" && x.name === "TransferWithMemo");
const transferEvent = eip3009Abi[5];

/** Reconciles the ledger against both chains and against what the agents asked for. */
export async function reconcile(
  devnet: DevnetInfo,
  ledger: Ledger,
  logical: Logical[],
): Promise<Reconciliation> {
  const evm = createPublicClient({ transport: http(devnet.x402.rpcUrl) });
  const tempo = createPublicClient({ transport: http(devnet.tempo.rpcUrl) });
  const details: string[] = [];
  const byTx = new Map<string, (typeof ledger.payments)[number][]>();
  for (const row of ledger.payments) {
    if (row.txRef) byTx.set(row.txRef.toLowerCase(), [...(byTx.get(row.txRef.toLowerCase()) ?? []), row]);
  }

  // Every transfer into a service wallet is one payment whose write is stored, or was refunded.
  const serviceEvm = [devnet.x402.payTo, devnet.x402.refundWallet].map((a) => a.toLowerCase());
  const evmIn = (
    await getLogs(evm, { address: devnet.x402.asset, event: transferEvent, fromBlock: 0n })
  ).filter((l) => serviceEvm.includes(l.args.to!.toLowerCase()));
  const tempoIn = (
    await getLogs(tempo, {
      address: devnet.tempo.currency,
      event: tip20TransferWithMemo as never,
      fromBlock: 0n,
    })
  )
    .map(
      (l) =>
        l as unknown as { transactionHash: Hash; args: { from: Hex; to: Hex; memo: Hex; amount: bigint } },
    )
    .filter((l) => l.args.to.toLowerCase() === devnet.tempo.recipient.toLowerCase());
  let lostWrites = 0;
  for (const transfer of [...evmIn, ...tempoIn]) {
    const rows = byTx.get(transfer.transactionHash.toLowerCase()) ?? [];
    if (rows.length !== 1 || !["fulfilled", "refunded"].includes(rows[0]!.status)) {
      lostWrites++;
      details.push(
        `transfer ${transfer.transactionHash} has ${rows.map((r) => r.status).join(",") || "no"} ledger rows`,
      );
    }
  }

  // Every fulfilled row is proven by its transaction's receipt, and its write exists.
  let unpaidStores = 0;
  const stored = new Set([
    ...ledger.items.map((i) => i.paymentId),
    ...ledger.namespaces.map((n) => n.paymentId),
    ...ledger.payouts.map((p) => p.paymentId),
  ]);
  for (const row of ledger.payments.filter((r) => r.status === "fulfilled" || r.status === "refunded")) {
    if (!(await proven(row, evm, tempo))) {
      unpaidStores++;
      details.push(`payment ${row.id} (${row.status}) is not proven by ${row.txRef}`);
    }
    if (row.status === "fulfilled" && !stored.has(row.id)) {
      unpaidStores++;
      details.push(`payment ${row.id} is fulfilled but its ${row.operation} is not stored`);
    }
  }
  const fulfilled = new Set(
    ledger.payments.filter((r) => r.status === "fulfilled" || r.status === "refunded").map((r) => r.id),
  );
  for (const paymentId of stored) {
    if (!fulfilled.has(paymentId)) {
      unpaidStores++;
      details.push(`a write is stored for payment ${paymentId}, which is not fulfilled`);
    }
  }

  // One agent request, one charge at most: count the credentials of each request whose money moved.
  const byKey = new Map(ledger.payments.map((r) => [r.paymentKey, r]));
  let doubleCharges = 0;
  for (const request of logical) {
    const moved = request.keys.filter((k) =>
      ["fulfilled", "refunded", "settled"].includes(byKey.get(k)?.status ?? ""),
    );
    if (moved.length > 1) {
      doubleCharges++;
      details.push(`one ${request.kind} request was charged ${moved.length} times: ${moved.join(", ")}`);
    }
  }

  // Rewards and refunds on chain against the payouts owed.
  const memoLogs = (
    await getLogs(tempo, {
      address: devnet.tempo.currency,
      event: tip20TransferWithMemo as never,
      fromBlock: 0n,
    })
  )
    .map((l) => l as unknown as { args: { from: Hex; memo: Hex } })
    .filter((l) => l.args.from.toLowerCase() === devnet.tempo.payoutAddress.toLowerCase());
  const memos = new Map<string, number>();
  for (const l of memoLogs) {
    const text = hexToString(l.args.memo).replace(/\0+$/, "");
    memos.set(text, (memos.get(text) ?? 0) + 1);
  }
  let doublePayouts = 0;
  for (const [memo, count] of memos) {
    if (!memo.startsWith("reward:")) continue;
    const paid = ledger.payouts.filter(
      (p) => p.memo && hexToString(p.memo as Hex).replace(/\0+$/, "") === memo && p.status === "paid",
    );
    if (count > Math.max(1, paid.length)) {
      doublePayouts++;
      details.push(`${count} reward transfers carry ${memo}, for ${paid.length} paid payouts`);
    }
  }
  let doubleRefunds = 0;
  for (const [memo, count] of memos) {
    if (memo.startsWith("refund:") && count > 1) {
      doubleRefunds++;
      details.push(`${count} refunds carry ${memo}`);
    }
  }
  const x402Refunds = await getLogs(evm, {
    address: devnet.x402.asset,
    event: authorizationUsedEvent,
    args: { authorizer: devnet.x402.refundWallet },
    fromBlock: 0n,
  });
  const refundedX402 = ledger.payments.filter((r) => r.protocol === "x402" && r.status === "refunded");
  for (const row of refundedX402) {
    const nonce = keccak256(stringToHex(`refund:${row.id}`));
    const count = x402Refunds.filter((l) => l.args.nonce?.toLowerCase() === nonce).length;
    // Refunded in the ledger but not on chain: the service kept money it says it gave back.
    if (count === 0) lostWrites++;
    if (count > 1) doubleRefunds++;
    if (count !== 1) details.push(`x402 payment ${row.id} is refunded ${count} times on chain`);
  }

  const openClaims = ledger.payments.filter((r) => r.status === "claimed" || r.status === "settled");
  const openPayouts = ledger.payouts.filter((p) => p.status === "pending" || p.status === "refunding");
  for (const r of openClaims) details.push(`payment ${r.id} is still ${r.status}`);
  for (const p of openPayouts) details.push(`payout ${p.id} is still ${p.status}`);
  return {
    chargesOnChain: evmIn.length + tempoIn.length,
    writesStored: ledger.payments.filter((r) => r.status === "fulfilled").length,
    refunds: ledger.payments.filter((r) => r.status === "refunded").length,
    lostWrites,
    unpaidStores,
    doubleCharges,
    doublePayouts,
    doubleRefunds,
    openClaims: openClaims.length,
    openPayouts: openPayouts.length,
    details,
  };
}

/** Whether a row's transaction on chain moved exactly its amount from its payer to its recipient. */
async function proven(
  row: Ledger["payments"][number],
  evm: ReturnType<typeof createPublicClient>,
  tempo: ReturnType<typeof createPublicClient>,
): Promise<boolean> {
  if (!row.txRef) return false;
  const receipt = await getTransactionReceipt(row.protocol === "x402" ? evm : tempo, {
    hash: row.txRef as Hash,
  }).catch(() => null);
  if (!receipt) return false;
  if (row.protocol === "mpp") {
    return paysChallenge(receipt, {
      ...row,
      currency: row.asset,
      challengeId: row.paymentKey.replace(/^mpp:/, ""),
    });
  }
  const nonce = row.paymentKey.split(":").at(-1) as Hex;
  return provesPayment(receipt, {
    asset: row.asset as Hex,
    from: row.payer as Hex,
    to: row.payTo as Hex,
    value: BigInt(row.amount),
    nonce,
  });
}
