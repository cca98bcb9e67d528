import { expect, test } from "@playwright/test";
import { Receipt } from "mppx";
import { type Hash, parseEventLogs } from "viem";
import { getTransactionReceipt, readContract } from "viem/actions";
import { Abis } from "viem/tempo";
import { createMppFetch } from "../../scripts/clients/mpp-payer";
import { tempoClient } from "../../scripts/devnet/tempo";
import { devnet, item, postJson, uniqueName, url } from "./fixtures";

// MPP pays on the Tempo chain only, so these wallets' Tempo balances are this file's alone.
const tempo = devnet.tempo;
const chain = tempoClient(tempo);
const owner = createMppFetch(tempo, devnet.accounts[0]!.privateKey, fetch);
const agent = createMppFetch(tempo, devnet.accounts[1]!.privateKey, fetch);

const balance = (who: string) =>
  readContract(chain, {
    address: tempo.currency,
    abi: Abis.tip20,
    functionName: "balanceOf",
    args: [who as Hash],
  });

async function transfersOf(hash: string) {
  const receipt = await getTransactionReceipt(chain, { hash: hash as Hash });
  expect(receipt.status).toBe("success");
  // Only USDC.e: the same transaction also moves its fee, in the fee token, to the fee manager.
  return parseEventLogs({ abi: Abis.tip20, logs: receipt.logs })
    .filter((l) => l.address.toLowerCase() === tempo.currency.toLowerCase())
    .filter((l) => l.eventName === "Transfer" || l.eventName === "TransferWithMemo")
    .map((l) => ({ event: l.eventName, ...(l.args as Record<string, unknown>) }));
}

/** The receipt of a paid response, checked on chain: one transfer of exactly `price` to the recipient. */
async function expectMppSettled(res: Response, payer: string, price: bigint) {
  expect(res.status).toBe(200);
  const receipt = Receipt.fromResponse(res);
  expect(receipt).toMatchObject({ method: "tempo", status: "success" });
  const moved = (await transfersOf(receipt.reference)).filter((t) => t.event === "Transfer");
  expect(moved).toEqual([{ event: "Transfer", from: payer, to: tempo.recipient, amount: price }]);
}

test.describe.configure({ mode: "serial" });

test("an agent that speaks only MPP registers, submits and tips over HTTP", async () => {
  const namespace = uniqueName("mpp-");
  const ownerBefore = await balance(owner.address);
  const registered = await owner.fetch(url("register"), postJson({ namespace }));
  await expectMppSettled(registered, owner.address, 1_000_000n);
  expect((await registered.json()).ownerWallet).toBe(owner.address);
  expect(await balance(owner.address)).toBe(ownerBefore - 1_000_000n);

  const submitted = await agent.fetch(url("feedback"), postJson(item(namespace)));
  await expectMppSettled(submitted, agent.address, 10_000n);
  const { id } = await submitted.json();

  const agentBefore = await balance(agent.address);
  const resolved = await owner.fetch(
    url("resolve"),
    postJson({ feedbackId: id, message: "Thanks", rewardAmount: "0.2" }),
  );
  await expectMppSettled(resolved, owner.address, 200_000n);
  const { reward } = await resolved.json();
  expect(reward).toMatchObject({ amount: "0.2", recipient: agent.address });
  const paidOut = (await transfersOf(reward.txHash)).filter((t) => t.event === "TransferWithMemo");
  expect(paidOut).toEqual([
    expect.objectContaining({
      event: "TransferWithMemo",
      from: tempo.payoutAddress,
      to: agent.address,
      amount: 200_000n,
    }),
  ]);
  expect(await balance(agent.address)).toBe(agentBefore + 200_000n);
});

test("a credential sent again to the same or another instance gets its first answer, never a charge", async () => {
  const second = process.env.E2E_SECOND_APP_URL;
  const body = item(uniqueName("replay-"));
  const first = await agent.fetch(url("feedback"), postJson(body));
  await expectMppSettled(first, agent.address, 10_000n);
  const answer = await first.json();
  const credential = agent.sent.at(-1)!;
  const before = await balance(agent.address);
  const targets = [url("feedback"), ...(second ? [`${second}/api/namespace/feedback`] : [])];
  for (const target of targets) {
    const again = await fetch(target, postJson(body, { authorization: credential }));
    expect(again.status, target).toBe(200);
    expect(await again.json()).toEqual(answer);
    const other = await fetch(
      target,
      postJson({ ...body, title: "Another one" }, { authorization: credential }),
    );
    expect(other.status, target).toBe(409);
    expect((await other.json()).type).toBe("https://paymentauth.org/problems/invalid-challenge");
  }
  expect(await balance(agent.address)).toBe(before);
  test.info().annotations.push({
    type: "instances",
    description: second ? "replayed to a second instance on the same PostgreSQL" : "single instance (PGlite)",
  });
});
