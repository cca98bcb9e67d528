import { eq } from "drizzle-orm";
import { type Hash, type Hex, keccak256, parseEventLogs } from "viem";
import { getLogs } from "viem/actions";
import { Abis } from "viem/tempo";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payouts } from "@/lib/db/schema";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { type FaultPolicy, PASS, startRpcProxy } from "@/testing/rpc-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";
import { rewardMemo } from "./memos";
import { settlePayout } from "./settle-payout";

// The service reaches the Tempo chain only through a proxy that can cut, drop and refuse its calls.
const devnet = workerDevnet();
const proxy = await startRpcProxy(devnet.tempo.rpcUrl);
process.env.TEMPO_RPC_URL = proxy.url;
afterAll(() => proxy.close());

const x402 = (i: number) => devnetX402Payer(devnet, i, appFetch);
const owner = x402(4);
const agent = x402(5);
const chain = tempoClient(devnet.tempo);
const namespace = uniqueName("faults");

async function newItem() {
  const res = await agent.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({
      namespace,
      type: "bug",
      title: distinctTitle("Tip me"),
      description: "A report worth a reward.",
    }),
  );
  return (await res.json()).id as string;
}

/** Every USDC.e transfer on chain carrying this item's reward memo. */
async function rewardsOnChain(id: string) {
  const logs = await getLogs(chain, {
    address: devnet.tempo.currency,
    event: Abis.tip20.find((x) => x.type === "event" && x.name === "TransferWithMemo") as never,
    args: { memo: rewardMemo(id) } as never,
    fromBlock: 0n,
  });
  return parseEventLogs({ abi: Abis.tip20, logs, eventName: "TransferWithMemo" });
}

const payoutOf = async (id: string) =>
  (await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, id)))[0]!;

const hashOf = (params: unknown[]) => keccak256(params[0] as Hex);

describe("rewards on a bad network", () => {
  it("never signs a second payout while the chain cannot say whether the first landed, and pays each once", async () => {
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const [landed, lost] = [await newItem(), await newItem()];
    const resolve = (id: string) =>
      owner.fetch(`${APP}/api/namespace/resolve`, postJson({ feedbackId: id, rewardAmount: "0.05" }));

    // 1. The payout reaches the chain, but the answer is lost and every receipt lookup fails.
    const unknown = new Set<Hash>();
    const receiptsFail: FaultPolicy = ({ method, params }) => {
      if (method === "eth_sendRawTransaction" || method === "eth_sendRawTransactionSync") {
        unknown.add(hashOf(params));
        return { kind: "cut-after-forward" };
      }
      if (method === "eth_getTransactionReceipt" && unknown.has(params[0] as Hash))
        return { kind: "http-500" };
      return { kind: "pass" };
    };
    proxy.setPolicy(receiptsFail);
    const first = await resolve(landed);
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({
      type: "/problems/payout-unavailable",
      paymentId: expect.any(String),
    });
    const signedOnce = await payoutOf(landed);
    expect(signedOnce).toMatchObject({ status: "pending", attempts: 1 });

    // 2. Another payout's bytes never reach the chain at all.
    proxy.setPolicy((call) =>
      call.method.startsWith("eth_sendRawTransaction")
        ? { kind: "cut" }
        : receiptsFail({ ...call, method: call.method }),
    );
    const second = await resolve(lost);
    expect(second.status).toBe(503);
    expect((await payoutOf(lost)).attempts).toBe(1);

    // Until both signed transactions have lapsed, and after, nothing new is signed for the first:
    // its receipt cannot be read, so whether it landed is unknown.
    const lapse = Number((await payoutOf(lost)).updatedAt.getTime()) + 28_000;
    while (Date.now() < lapse) {
      expect(await settlePayout(landed)).toEqual({ status: "pending" });
      await new Promise((r) => setTimeout(r, 2_000));
    }
    expect(await settlePayout(landed)).toEqual({ status: "pending" });
    expect(await payoutOf(landed)).toMatchObject({ rawTx: signedOnce.rawTx, attempts: 1 });

    // The network heals: the first is found on chain, the second (provably dead) is signed anew, once.
    proxy.setPolicy(PASS);
    expect(await settlePayout(landed)).toMatchObject({ status: "paid", txHash: signedOnce.txHash });
    expect(await settlePayout(lost)).toMatchObject({ status: "paid" });
    expect((await payoutOf(lost)).attempts).toBe(2);
    expect(await rewardsOnChain(landed)).toHaveLength(1);
    expect(await rewardsOnChain(lost)).toHaveLength(1);
    expect(proxy.stats().faults).toMatchObject({
      "cut-after-forward": 1,
      cut: expect.any(Number),
      "http-500": expect.any(Number),
    });
  }, 120_000);
});
