import { Receipt } from "mppx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { PASS, startRpcProxy } from "@/testing/rpc-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// Paid follow-ups on a network the test controls: the service reaches the x402 chain through a proxy
// that can hold the settlement's transaction while the owner acts on the item.
const devnet = workerDevnet();
const proxy = await startRpcProxy(devnet.x402.rpcUrl);
process.env.X402_RPC_URL = proxy.url;
afterAll(() => proxy.close());

const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const owner = { pay: devnetX402Payer(devnet, 1, appFetch), read: createSignInFetch(keyOf(1), appFetch) };
const agent = devnetX402Payer(devnet, 6, appFetch);
const agentMpp = createMppFetch(devnet.tempo, keyOf(6), appFetch);
const namespace = uniqueName("followup");

async function askedItem(question: string) {
  const res = await agent.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({
      namespace,
      type: "bug",
      title: distinctTitle("Export fails"),
      description: "The export fails.",
    }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  const id = (await res.json()).id as string;
  await setStatus(id, "needs_info", question);
  return id;
}

async function setStatus(id: string, status: string, message?: string) {
  const res = await owner.read.fetch(
    `${APP}/api/namespace/feedback/status`,
    postJson({ namespace, feedbackIds: [id], status, message }),
  );
  expect(res.status).toBe(200);
}

const recordOf = async (id: string) =>
  (await owner.read.fetch(`${APP}/api/namespace/feedback?id=${id}`)).json();
const followUp = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/feedback/follow-up`, postJson(body));

beforeAll(async () => {
  const res = await owner.pay.fetch(`${APP}/api/namespace/register`, postJson({ namespace }));
  expect(res.status).toBe(200);
});

describe("a paid follow-up", () => {
  it("is stored when the owner moves the item on while the payment settles, and leaves the owner's status", async () => {
    const id = await askedItem("Which file?");
    const before = await chain.balanceOf(agent.address);
    let release!: () => void;
    let sent!: () => void;
    const held = new Promise<void>((r) => {
      sent = r;
    });
    proxy.setPolicy(({ method }) => {
      if (!method.startsWith("eth_sendRawTransaction")) return { kind: "pass" };
      sent();
      return { kind: "hold", until: new Promise<void>((r) => (release = r)) };
    });
    const answer = followUp(agent, { feedbackId: id, message: "report.csv, 40 MB." });
    // The charge is on its way to the chain: the owner decides meanwhile.
    await held;
    proxy.setPolicy(PASS);
    await setStatus(id, "in_progress", "Looking at it.");
    release();

    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ feedbackId: id, status: "in_progress" });
    expect(await chain.balanceOf(agent.address)).toBe(before - 10_000n);
    const record = await recordOf(id);
    expect(record.status).toBe("in_progress");
    expect(record.history.at(-1)).toMatchObject({
      kind: "follow_up",
      from: null,
      to: null,
      message: "report.csv, 40 MB.",
    });
  });

  it("can be paid over MPP by the same wallet that submitted over x402", async () => {
    const id = await askedItem("Which browser?");
    const res = await followUp(agentMpp, { feedbackId: id, message: "Firefox 140." });
    expect(res.status).toBe(200);
    expect(Receipt.fromResponse(res).status).toBe("success");
    expect(await res.json()).toMatchObject({ feedbackId: id, status: "open" });
    const record = await recordOf(id);
    expect(record.status).toBe("open");
    expect(record.history.at(-1)).toMatchObject({
      kind: "follow_up",
      from: "needs_info",
      to: "open",
      message: "Firefox 140.",
    });
    expect(record.history.at(-1).actor.toLowerCase()).toBe(agent.address.toLowerCase());
  });
});
