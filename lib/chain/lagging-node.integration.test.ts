import { eq, inArray } from "drizzle-orm";
import { type Hash, type Hex, parseEventLogs } from "viem";
import { getLogs, waitForTransactionReceipt } from "viem/actions";
import { Abis } from "viem/tempo";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payments, payouts } from "@/lib/db/schema";
import { PAID_WRITES } from "@/lib/domain/paid-operations";
import { rewardMemo } from "@/lib/domain/rewards/memos";
import { recoverPayouts } from "@/lib/domain/rewards/recover-payouts";
import { settlePayout } from "@/lib/domain/rewards/settle-payout";
import { claimPayment, requestHashOf } from "@/lib/payment/ledger";
import { mppProtocol } from "@/lib/payment/mpp";
import { recoverPayments } from "@/lib/payment/recover";
import { transferValidBefore } from "@/lib/payment/tempo";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { laggingNode } from "@/testing/lagging-node";
import { storeRewardedResolve, x402RewardPayment } from "@/testing/rewards";
import { PASS, startRpcProxy } from "@/testing/rpc-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// The service reaches Tempo only through a proxy that can play a node left behind by its chain.
const devnet = workerDevnet();
const proxy = await startRpcProxy(devnet.tempo.rpcUrl);
process.env.TEMPO_RPC_URL = proxy.url;
afterAll(() => proxy.close());
afterEach(() => {
  vi.restoreAllMocks();
  proxy.setPolicy(PASS);
});

const tempo = tempoClient(devnet.tempo);
const owner = devnetX402Payer(devnet, 2, appFetch);
const agent = devnetX402Payer(devnet, 5, appFetch);
const payer = createMppFetch(devnet.tempo, devnet.accounts[6]!.privateKey as Hex, appFetch);

/** Moves the service's clock to `seconds` (the chain keeps its own): time has passed, the node has not. */
function clockAt(seconds: bigint) {
  const offset = Number(seconds) * 1000 - Date.now();
  const real = Date.now.bind(Date);
  vi.spyOn(Date, "now").mockImplementation(() => real() + offset);
}

/** The block a transaction was mined in, read from the chain itself. */
const minedIn = async (hash: string) =>
  (await waitForTransactionReceipt(tempo, { hash: hash as Hash })).blockNumber;

describe("a node that lags behind the chain", () => {
  it("never makes a reward that landed look dead, so nothing new is signed", async () => {
    const namespace = uniqueName("lag");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const submitted = await agent.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: distinctTitle("Lag"), description: "Paid late." }),
    );
    const id = (await submitted.json()).id as string;
    await storeRewardedResolve(await x402RewardPayment(devnet, owner, 50_000n), id, 50_000n);
    // The payout lands, and its answer is lost: the payout stays owed with the bytes that landed.
    proxy.setPolicy(({ method }) =>
      method.startsWith("eth_sendRawTransaction")
        ? { kind: "cut-after-forward" }
        : method === "eth_getTransactionReceipt"
          ? { kind: "http-500" }
          : { kind: "pass" },
    );
    expect(await settlePayout(id)).toEqual({ status: "pending" });
    const [owed] = await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, id));
    const landedIn = await minedIn(owed!.txHash!);

    // Long after those bytes lapsed, the service asks a node still at the block before they landed.
    const asked: string[] = [];
    const lagging = laggingNode(landedIn - 1n);
    proxy.setPolicy((call) => {
      asked.push(call.method);
      return lagging(call);
    });
    clockAt(transferValidBefore(owed!.rawTx as Hex) + 90n);
    expect(await settlePayout(id)).toEqual({ status: "pending" });
    // Nothing was decided: no new transfer was even prepared, and the payout is as it was.
    expect(asked.filter((m) => /^eth_(fillTransaction|estimateGas|sendRawTransaction)/.test(m))).toEqual([]);
    expect(await recoverPayouts({ idleMs: 0, feedbackIds: [id] })).toMatchObject({ pending: 1 });
    const [after] = await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, id));
    expect(after).toMatchObject({ status: "pending", rawTx: owed!.rawTx, attempts: 1 });

    // Once the node has caught up, the reward is found paid by the bytes that landed, once.
    vi.restoreAllMocks();
    proxy.setPolicy(PASS);
    expect(await settlePayout(id)).toMatchObject({ status: "paid", txHash: owed!.txHash });
    const logs = await getLogs(tempo, {
      address: devnet.tempo.currency,
      event: Abis.tip20.find((x) => x.type === "event" && x.name === "TransferWithMemo") as never,
      args: { memo: rewardMemo(id) } as never,
      fromBlock: 0n,
    });
    expect(parseEventLogs({ abi: Abis.tip20, logs, eventName: "TransferWithMemo" })).toHaveLength(1);
  }, 120_000);

  it("never fails an MPP payment that landed, or one that can still land", async () => {
    const [landed, unsent] = [await claimedMppPayment(), await claimedMppPayment()];
    // The first is sent and lands, and the process dies before recording it; the second is never sent.
    const { txRef } = await landed.payment.settle();
    const landedIn = await minedIn(txRef);

    proxy.setPolicy(laggingNode(landedIn - 1n));
    clockAt(BigInt(Math.max(landed.expiresAt, unsent.expiresAt)) + 90n);
    const ids = [landed.paymentId, unsent.paymentId];
    expect(await recover(ids)).toMatchObject({ settled: 0, failed: 0, errors: 2 });
    expect(await statusOf(ids)).toEqual(["claimed", "claimed"]);

    vi.restoreAllMocks();
    proxy.setPolicy(PASS);
    // The landed one is proven and stored; the unsent one may still land, so it stays open.
    expect(await recover(ids)).toMatchObject({ settled: 1, fulfilled: 1, failed: 0, pending: 1 });
    await unsent.payment.settle();
    expect(await recover(ids)).toMatchObject({ settled: 1, fulfilled: 1 });
    expect(await statusOf(ids)).toEqual(["fulfilled", "fulfilled"]);
    const stored = await (await getDb()).select().from(feedback).where(inArray(feedback.paymentId, ids));
    expect(stored).toHaveLength(2);
  }, 120_000);
});

const url = `${APP}/api/namespace/feedback`;
const charge = {
  operation: "feedback",
  method: "POST" as const,
  amountMicroUsd: OPERATIONS.feedback.price,
  resourceUrl: url,
  description: "Submitting feedback",
};

/** An MPP payment for a submission, verified and claimed exactly as a request would, then not settled. */
async function claimedMppPayment() {
  const input = {
    namespace: uniqueName(),
    type: "bug",
    title: distinctTitle("Late"),
    description: "Paid behind a lagging node.",
  };
  const { headers } = await mppProtocol.challenge(charge);
  const authorization = await payer.createCredential(new Response(null, { status: 402, headers }));
  const request = new Request(url, { method: "POST", headers: { authorization } });
  const payment = await mppProtocol.verify(request, charge, await mppProtocol.read(request, charge));
  const claim = await claimPayment(await getDb(), {
    payment,
    operation: "feedback",
    lockKey: null,
    request: { ...input, signedIn: null },
    requestHash: requestHashOf(input),
  });
  if (!claim.ok) throw new Error("claim refused");
  return { payment, paymentId: claim.paymentId, expiresAt: Math.floor(payment.expiresAt.getTime() / 1000) };
}

const recover = (paymentIds: string[]) => recoverPayments(PAID_WRITES, { idleMs: 0, paymentIds });
const statusOf = async (ids: string[]) => {
  const rows = await (await getDb()).select().from(payments);
  return ids.map((id) => rows.find((r) => r.id === id)?.status);
};
