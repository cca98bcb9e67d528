import { beforeAll, describe, expect, it } from "vitest";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { signInHeader } from "@/testing/sign-in";
import { workerDevnet } from "@/testing/worker-devnet";

const devnet = workerDevnet();
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const ownerKey = keyOf(2);
const agentKey = keyOf(3);
const strangerKey = keyOf(4);
const owner = { pay: devnetX402Payer(devnet, 2, appFetch), read: createSignInFetch(ownerKey, appFetch) };
const agent = { pay: devnetX402Payer(devnet, 3, appFetch), read: createSignInFetch(agentKey, appFetch) };
const stranger = createSignInFetch(strangerKey, appFetch);

const namespace = uniqueName("inbox");
const longTitle = `A title that is well over eighty characters long so that list views must shorten it ${"x".repeat(20)}`;
const ids: string[] = [];

async function submit(body: Record<string, unknown>) {
  const res = await agent.pay.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({ namespace, description: "Details of the item.", ...body }),
  );
  expect(res.status).toBe(200);
  return (await res.json()).id as string;
}

beforeAll(async () => {
  ids.push(await submit({ type: "bug", title: longTitle, severity: "high" }));
  expect((await owner.pay.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
  ids.push(await submit({ type: "feature", title: "Dark mode" }));
  ids.push(await submit({ type: "bug", title: "Crash on save", severity: "low", steps: ["Open", "Save"] }));
});

const list = (query: string, who = owner.read) =>
  who.fetch(`${APP}/api/namespace/list?namespace=${namespace}${query}`);

describe("the owner's inbox", () => {
  it("asks for a sign-in without a proof", async () => {
    const res = await appFetch(`${APP}/api/namespace/list?namespace=${namespace}`);
    expect(res.status).toBe(402);
    expect((await res.json()).title).toBe("Authentication Required");
  });

  it("lists every item newest first, with the title shortened and the record's fields", async () => {
    const body = await (await list("")).json();
    expect(body.namespace).toBe(namespace);
    expect(body.count).toBe(3);
    expect(body.nextCursor).toBeUndefined();
    expect(body.feedback.map((f: { id: string }) => f.id)).toEqual([...ids].reverse());
    const oldest = body.feedback[2];
    expect(oldest.title).toBe(`${longTitle.slice(0, 77)}...`);
    expect(oldest).toMatchObject({
      type: "bug",
      severity: "high",
      verified: false,
      submitterDid: null,
      resolved: false,
      resolveMessage: null,
      rewardAmount: null,
      steps: null,
      expected: null,
      actual: null,
      metadata: null,
      resolvedAt: null,
      resolvedBy: null,
      rewardTxHash: null,
      targets: [],
    });
    expect(oldest.submitterWallet).toBe(agent.pay.address);
  });

  it("filters by type and severity", async () => {
    const bugs = await (await list("&type=bug")).json();
    expect(bugs.feedback.map((f: { id: string }) => f.id)).toEqual([ids[2], ids[0]]);
    const low = await (await list("&type=bug&severity=low")).json();
    expect(low.feedback.map((f: { id: string }) => f.id)).toEqual([ids[2]]);
  });

  it("pages with an opaque cursor that only fits its own query", async () => {
    const first = await (await list("&limit=2")).json();
    expect(first.count).toBe(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (await list(`&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    expect(second.feedback.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeUndefined();
    const misuse = await list(`&type=feature&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect(misuse.status).toBe(400);
  });

  it("is refused to anyone but the owner, and for names nobody registered", async () => {
    expect((await list("", stranger)).status).toBe(403);
    const unknown = await owner.read.fetch(`${APP}/api/namespace/list?namespace=${uniqueName("nobody")}`);
    expect(unknown.status).toBe(404);
  });

  it("refuses a replayed sign-in proof", async () => {
    const url = `${APP}/api/namespace/list?namespace=${namespace}`;
    const proof = await signInHeader(appFetch, url, ownerKey);
    expect((await appFetch(url, { headers: { "sign-in-with-x": proof } })).status).toBe(200);
    expect((await appFetch(url, { headers: { "sign-in-with-x": proof } })).status).toBe(401);
  });
});

describe("resolving and the submitter's status", () => {
  const resolve = (who: typeof stranger, body: unknown) =>
    who.fetch(`${APP}/api/namespace/resolve`, postJson(body));

  it("lets only the owner resolve, once, and shows the resolution to the submitter", async () => {
    expect((await resolve(stranger, { feedbackId: ids[1] })).status).toBe(403);
    expect((await resolve(owner.read, { feedbackId: "fb_doesnotexist" })).status).toBe(404);

    const res = await resolve(owner.read, { feedbackId: ids[1], message: "Shipped in 2.3" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual([
      "id",
      "message",
      "namespace",
      "resolved",
      "resolvedAt",
      "resolvedBy",
    ]);
    expect(body).toMatchObject({
      id: ids[1],
      namespace,
      resolved: true,
      resolvedBy: owner.pay.address,
      message: "Shipped in 2.3",
    });

    expect((await resolve(owner.read, { feedbackId: ids[1] })).status).toBe(409);

    const status = await (
      await agent.read.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)
    ).json();
    expect(status.submitter).toBe(agent.pay.address);
    expect(status.count).toBe(3);
    const resolved = status.feedback.find((f: { id: string }) => f.id === ids[1]);
    expect(resolved.resolved).toBe(true);
    expect(resolved.resolution).toEqual({
      message: "Shipped in 2.3",
      resolvedAt: body.resolvedAt,
      rewardAmount: null,
      rewardTxHash: null,
    });
    expect(status.feedback.find((f: { id: string }) => f.id === ids[0]).resolution).toBeUndefined();
  });

  it("prices a resolve with a reward at the reward, before asking anyone to sign in", async () => {
    const res = await appFetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: ids[0], rewardAmount: "0.5" }),
    );
    expect(res.status).toBe(402);
    expect((await res.json()).price).toEqual({ amount: "0.5", currency: "USD" });
  });

  it("shows the full record to its owner and submitter only", async () => {
    const url = `${APP}/api/namespace/feedback?id=${ids[0]}`;
    const full = await (await owner.read.fetch(url)).json();
    expect(full.title).toBe(longTitle);
    expect((await agent.read.fetch(url)).status).toBe(200);
    expect((await stranger.fetch(url)).status).toBe(403);
  });
});

describe("verified submissions", () => {
  it("marks an item verified when it carries a sign-in proof for the paying wallet", async () => {
    const proof = await signInHeader(appFetch, `${APP}/api/namespace/status`, agentKey);
    const res = await agent.pay.fetch(
      `${APP}/api/namespace/feedback`,
      postJson(
        { namespace, type: "feedback", title: "Signed", description: "Sent with a proof." },
        { "sign-in-with-x": proof },
      ),
    );
    expect(res.status).toBe(200);
    const { id } = await res.json();
    const record = await (await owner.read.fetch(`${APP}/api/namespace/feedback?id=${id}`)).json();
    expect(record.verified).toBe(true);
    expect(record.submitterDid).toBe(`did:pkh:${devnet.x402.network}:${agent.pay.address}`);
  });
});
