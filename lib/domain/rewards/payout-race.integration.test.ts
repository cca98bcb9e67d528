import { eq } from "drizzle-orm";
import { type Hash, type Hex, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { getLogs, waitForTransactionReceipt } from "viem/actions";
import { Abis } from "viem/tempo";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments, payouts } from "@/lib/db/schema";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { fundTempoWallet, storeRewardedResolve, x402RewardPayment } from "@/testing/rewards";
import { PASS, startRpcProxy } from "@/testing/rpc-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";
import { rewardMemo } from "./memos";
import { settlePayout } from "./settle-payout";

// The service reaches Tempo through a proxy that can hold a call while another worker moves on.
const devnet = workerDevnet();
const proxy = await startRpcProxy(devnet.tempo.rpcUrl);
process.env.TEMPO_RPC_URL = proxy.url;
// A payout wallet of this file's own, so its balance is known to the unit.
const payoutKey = generatePrivateKey();
const payoutAddress = privateKeyToAccount(payoutKey).address;
process.env.PAYOUT_PRIVATE_KEY = payoutKey;
afterAll(() => proxy.close());

const owner = devnetX402Payer(devnet, 3, appFetch);
const agent = devnetX402Payer(devnet, 6, appFetch);
const tempo = tempoClient(devnet.tempo);
const evm = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
const REWARD = 200_000n;

/** Whether a JSON-RPC call reads the payout wallet's USDC.e balance. */
const readsPayoutBalance = (method: string, params: unknown[]) => {
  const call = params[0] as { to?: string; data?: string; input?: string } | undefined;
  const data = (call?.data ?? call?.input ?? "").toLowerCase();
  return (
    method === "eth_call" &&
    call?.to?.toLowerCase() === devnet.tempo.currency.toLowerCase() &&
    data.startsWith("0x70a08231") &&
    data.endsWith(payoutAddress.slice(2).toLowerCase())
  );
};

const payoutOf = async (id: string) =>
  (await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, id)))[0]!;

/** Every reward transfer on chain carrying this item's memo. */
async function rewardsOnChain(id: string) {
  const logs = await getLogs(tempo, {
    address: devnet.tempo.currency,
    event: Abis.tip20.find((x) => x.type === "event" && x.name === "TransferWithMemo") as never,
    args: { memo: rewardMemo(id) } as never,
    fromBlock: 0n,
  });
  return parseEventLogs({ abi: Abis.tip20, logs, eventName: "TransferWithMemo" });
}

function later() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("two workers on one payout", () => {
  it("never both pay the reward and refund the resolver", async () => {
    const namespace = uniqueName("race");
    expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
    const submitted = await agent.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: distinctTitle("Race me"), description: "Two workers." }),
    );
    const id = (await submitted.json()).id as string;
    // Enough for this one reward, not for two: once it is paid, the wallet cannot cover it again.
    await fundTempoWallet(devnet, payoutKey, { usdcE: (REWARD * 3n) / 2n, fees: true });
    const before = await evm.balanceOf(owner.address);
    const paymentId = await storeRewardedResolve(await x402RewardPayment(devnet, owner, REWARD), id, REWARD);

    // Worker A reads the payout and stops at its balance read; worker B then signs and lands the
    // reward, and its receipt looks wait until A has acted on what it read.
    const aAtBalance = later();
    const bLanded = later();
    const aActed = later();
    let [aHeld, aReleased] = [false, false];
    proxy.setPolicy(({ method, params }) => {
      if (!aHeld && readsPayoutBalance(method, params)) {
        aHeld = true;
        aAtBalance.resolve();
        return { kind: "hold", until: bLanded.promise };
      }
      // Only B looks for receipts while A is held. B's look is answered once A has acted on its read:
      // A has finished, or asks the chain again (viem shares one in-flight request between the two).
      if (method === "eth_getTransactionReceipt" && aHeld && !aReleased) {
        return { kind: "hold", until: aActed.promise };
      }
      if (aReleased) aActed.resolve();
      return { kind: "pass" };
    });
    const a = settlePayout(id).finally(() => aActed.resolve());
    await aAtBalance.promise;
    const b = settlePayout(id);
    let signed = await payoutOf(id);
    while (!signed.txHash) {
      await new Promise((r) => setTimeout(r, 100));
      signed = await payoutOf(id);
    }
    await waitForTransactionReceipt(tempo, { hash: signed.txHash as Hash });
    // A now reads a balance that cannot cover a second reward: it must not refund what B paid.
    aReleased = true;
    bLanded.resolve();
    await Promise.all([a, b]);
    proxy.setPolicy(PASS);

    const outcome = await settlePayout(id);
    const [ledger] = await (await getDb()).select().from(payments).where(eq(payments.id, paymentId));
    // B's transfer landed, so the reward is paid, once, and the resolver keeps having paid for it.
    expect({
      rewardsOnChain: (await rewardsOnChain(id)).length,
      resolverRefunded: ledger!.status === "refunded",
      resolverPaid: before - (await evm.balanceOf(owner.address)),
    }).toEqual({ rewardsOnChain: 1, resolverRefunded: false, resolverPaid: REWARD });
    expect(outcome).toMatchObject({ status: "paid", txHash: signed.txHash as Hex });
  }, 120_000);
});
