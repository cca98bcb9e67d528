import { decodePaymentResponseHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import { type Hash, parseEventLogs } from "viem";
import { getTransactionReceipt, readContract } from "viem/actions";
import { Abis } from "viem/tempo";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payouts } from "@/lib/db/schema";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";
import { rewardMemo } from "./memos";
import { recoverPayouts } from "./recover-payouts";

const devnet = workerDevnet();
const tempo = tempoClient(devnet.tempo);
const evm = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
const ownerKey = devnet.accounts[7]!.privateKey as `0x${string}`;
const agentKey = devnet.accounts[0]!.privateKey as `0x${string}`;
const x402 = (i: number) => devnetX402Payer(devnet, i, appFetch);
const owner = x402(7);
const agent = x402(0);
const stranger = x402(4);
const ownerMpp = createMppFetch(devnet.tempo, ownerKey, appFetch);
const agentReader = createSignInFetch(agentKey, appFetch);
const ownerReader = createSignInFetch(ownerKey, appFetch);

const usdcE = (who: string) =>
  readContract(tempo, {
    address: devnet.tempo.currency,
    abi: Abis.tip20,
    functionName: "balanceOf",
    args: [who as Hash],
  });
const rewardTransfers = async (hash: string) => {
  const receipt = await getTransactionReceipt(tempo, { hash: hash as Hash });
  return parseEventLogs({ abi: Abis.tip20, logs: receipt.logs, eventName: "TransferWithMemo" }).map(
    (l) => l.args,
  );
};

const namespace = uniqueName("tips");
async function newItem(by: { fetch: typeof fetch } = agent) {
  const res = await by.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({
      namespace,
      type: "bug",
      title: distinctTitle("Worth a tip"),
      description: "A precise, useful report.",
    }),
  );
  return (await res.json()).id as string;
}
const resolve = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/resolve`, postJson(body));

beforeAll(async () => {
  expect((await owner.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
});

describe("rewards", () => {
  it("charges the owner exactly the reward and forwards it to the submitter on Tempo, with a memo", async () => {
    const id = await newItem();
    const [ownerBefore, agentBefore] = [await evm.balanceOf(owner.address), await usdcE(agent.address)];
    const res = await resolve(owner, { feedbackId: id, message: "Thanks!", rewardAmount: "0.25" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ id, resolved: true, resolvedBy: owner.address, message: "Thanks!" });
    expect(body.reward).toEqual({
      amount: "0.25",
      recipient: agent.address,
      txHash: expect.stringMatching(/^0x/),
    });
    expect(await evm.balanceOf(owner.address)).toBe(ownerBefore - 250_000n);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!).success).toBe(true);
    expect(await rewardTransfers(body.reward.txHash)).toEqual([
      { from: devnet.tempo.payoutAddress, to: agent.address, amount: 250_000n, memo: rewardMemo(id) },
    ]);
    expect(await usdcE(agent.address)).toBe(agentBefore + 250_000n);

    const status = await (
      await agentReader.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)
    ).json();
    expect(status.feedback.find((f: { id: string }) => f.id === id).resolution).toEqual({
      message: "Thanks!",
      resolvedAt: body.resolvedAt,
      rewardAmount: "0.25",
      rewardTxHash: body.reward.txHash,
    });
  });

  it("refuses before any charge: bad amounts, strangers, unknown and resolved items", async () => {
    const id = await newItem();
    for (const rewardAmount of ["2.000001", "3", "-1", "0.0000001"]) {
      expect((await resolve(owner, { feedbackId: id, rewardAmount })).status).toBe(400);
    }
    const before = await evm.balanceOf(stranger.address);
    expect((await resolve(stranger, { feedbackId: id, rewardAmount: "0.1" })).status).toBe(403);
    expect((await resolve(stranger, { feedbackId: "fb_nope", rewardAmount: "0.1" })).status).toBe(404);
    expect(await evm.balanceOf(stranger.address)).toBe(before);
    expect((await resolve(owner, { feedbackId: id, rewardAmount: "2" })).status).toBe(200);
    const again = await evm.balanceOf(owner.address);
    expect((await resolve(owner, { feedbackId: id, rewardAmount: "0.1" })).status).toBe(409);
    expect(await evm.balanceOf(owner.address)).toBe(again);
  });

  it("can be paid with MPP as well", async () => {
    const id = await newItem();
    const res = await resolve(ownerMpp, { feedbackId: id, rewardAmount: "0.5" });
    expect(res.status).toBe(200);
    const { reward } = await res.json();
    expect(reward.amount).toBe("0.5");
    expect(await rewardTransfers(reward.txHash)).toHaveLength(1);
  });

  it("charges one of fifty concurrent paid resolves of one item and pays one reward", async () => {
    const id = await newItem();
    const first = await appFetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: id, rewardAmount: "0.1" }),
    );
    const header = first.headers.get("payment-required")!;
    const signatures = await Promise.all(Array.from({ length: 50 }, () => owner.sign(header)));
    const before = await evm.balanceOf(owner.address);
    const results = await Promise.all(
      signatures.map((s) =>
        appFetch(
          `${APP}/api/namespace/resolve`,
          postJson({ feedbackId: id, rewardAmount: "0.1" }, { "payment-signature": s }),
        ),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await evm.balanceOf(owner.address)).toBe(before - 100_000n);
    const rows = await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe("paid");
  });

  it("resolves the rest of a group only when named, with a reward paid only to the report it was given for", async () => {
    const [head, tipped, left] = [await newItem(stranger), await newItem(), await newItem(stranger)];
    const merged = await ownerReader.fetch(
      `${APP}/api/namespace/feedback/merge`,
      postJson({ namespace, into: head, feedbackIds: [tipped, left] }),
    );
    expect(merged.status).toBe(200);
    const [strangerBefore, agentBefore] = [await usdcE(stranger.address), await usdcE(agent.address)];
    const res = await resolve(owner, {
      feedbackId: tipped,
      message: "Fixed in 2.1",
      rewardAmount: "0.3",
      alsoResolve: [head],
    });
    expect(res.status).toBe(200);
    const { reward, alsoResolved } = await res.json();
    expect(alsoResolved).toEqual([head]);
    expect(await rewardTransfers(reward.txHash)).toEqual([
      { from: devnet.tempo.payoutAddress, to: agent.address, amount: 300_000n, memo: rewardMemo(tipped) },
    ]);
    expect(await usdcE(agent.address)).toBe(agentBefore + 300_000n);
    expect(await usdcE(stranger.address)).toBe(strangerBefore);

    // The other reporter sees the resolution, without a reward; the head cannot be tipped for it again.
    const record = await (await ownerReader.fetch(`${APP}/api/namespace/feedback?id=${head}`)).json();
    expect(record).toMatchObject({
      resolved: true,
      status: "resolved",
      resolveMessage: "Fixed in 2.1",
      rewardAmount: null,
    });
    const rows = await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, head));
    expect(rows).toEqual([]);
    // The report of the group it did not name is left as it was.
    const untouched = await (await ownerReader.fetch(`${APP}/api/namespace/feedback?id=${left}`)).json();
    expect(untouched).toMatchObject({ resolved: false, status: "open", resolveMessage: null });
  });

  it("frees an item once its reward is paid: it moves like any other item, and is never rewarded again", async () => {
    const [tipped, plain] = [await newItem(), await newItem()];
    const paid = await resolve(owner, { feedbackId: tipped, rewardAmount: "0.1" });
    expect(paid.status).toBe(200);
    const { reward } = await paid.json();
    const setStatus = (feedbackIds: string[], status: string) =>
      ownerReader.fetch(
        `${APP}/api/namespace/feedback/status`,
        postJson({ namespace, feedbackIds, status, message: "Looking again" }),
      );

    // An all-or-none change that names it, then one of its own: both go through.
    const both = await setStatus([plain, tipped], "in_progress");
    expect(both.status).toBe(200);
    expect((await both.json()).changed).toEqual([
      { id: plain, from: "open" },
      { id: tipped, from: "resolved" },
    ]);
    expect((await setStatus([tipped], "open")).status).toBe(200);
    const [row] = await (await getDb()).select().from(feedback).where(eq(feedback.id, tipped));
    expect(row).toMatchObject({ status: "open", resolved: false, resolvingPaymentId: null });
    expect(row!.rewardTxHash).toBe(reward.txHash);

    // Reopened, it still had its one reward: a second is refused before anything is charged.
    const before = await evm.balanceOf(owner.address);
    const again = await resolve(owner, { feedbackId: tipped, rewardAmount: "0.1" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ type: "/problems/reward-already-paid" });
    expect(await evm.balanceOf(owner.address)).toBe(before);
    expect((await resolve(ownerReader, { feedbackId: tipped, message: "Done" })).status).toBe(200);
    const rows = await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, tipped));
    expect(rows.map((r) => r.status)).toEqual(["paid"]);
  });

  it("recovers a payout a crash left owed, and never pays it twice", async () => {
    const id = await newItem();
    expect((await resolve(owner, { feedbackId: id, rewardAmount: "0.2" })).status).toBe(200);
    const db = await getDb();
    // Pretend the process died after the transfer was mined but before it was recorded.
    await db
      .update(payouts)
      .set({ status: "pending", txHash: null, rawTx: null })
      .where(eq(payouts.feedbackId, id));
    const agentBefore = await usdcE(agent.address);
    expect(await recoverPayouts({ idleMs: 0, feedbackIds: [id] })).toMatchObject({ paid: 1, errors: 0 });
    expect(await recoverPayouts({ idleMs: 0, feedbackIds: [id] })).toMatchObject({ paid: 0 });
    expect(await usdcE(agent.address)).toBe(agentBefore);
    const [row] = await db.select().from(payouts).where(eq(payouts.feedbackId, id));
    expect(row).toMatchObject({ status: "paid", txHash: expect.stringMatching(/^0x/) });
  });
});
