import { beforeAll, describe, expect, it } from "vitest";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";

// Triage, search and export through the routes, with real payments and real sign-in proofs.
const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const walletOf = (i: number) => ({
  pay: devnetX402Payer(devnet, i, appFetch),
  read: createSignInFetch(keyOf(i), appFetch),
});
const owner = walletOf(2);
const agent = walletOf(3);
const stranger = createSignInFetch(keyOf(4), appFetch);

const namespace = uniqueName("triage");
const ids: string[] = [];

async function submit(body: Record<string, unknown>) {
  const res = await agent.pay.fetch(`${APP}/api/namespace/feedback`, postJson({ namespace, ...body }));
  expect(res.status).toBe(200);
  return (await res.json()).id as string;
}

beforeAll(async () => {
  expect((await owner.pay.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
  ids.push(
    await submit({ type: "bug", title: "Checkout crashes on save", description: "=SUM(1+1) crashes it." }),
  );
  ids.push(
    await submit({ type: "feature", title: "Dark mode", description: 'Please, "dark" mode.\nThanks' }),
  );
});

const triage = (who: typeof stranger, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/feedback/status`, postJson({ namespace, ...body }));

describe("triage over HTTP", () => {
  it("asks the submitter for more, who sees the question in status", async () => {
    const res = await triage(owner.read, {
      feedbackIds: [ids[0]],
      status: "needs_info",
      message: "Which browser?",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "needs_info", changed: [{ id: ids[0], from: "open" }] });
    const status = await (
      await agent.read.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)
    ).json();
    const item = status.feedback.find((f: { id: string }) => f.id === ids[0]);
    expect(item).toMatchObject({ status: "needs_info", resolved: false });
    expect(item.history.at(-1)).toMatchObject({ to: "needs_info", message: "Which browser?" });
  });

  it('refuses "needs info" without a question, naming message, and changes nothing', async () => {
    for (const message of [undefined, null, "", "   \n "]) {
      const res = await triage(owner.read, { feedbackIds: [ids[1]], status: "needs_info", message });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/problem\+json/);
      expect((await res.json()).errors).toEqual([
        { field: "message", message: expect.stringMatching(/question/) },
      ]);
    }
    const status = await (
      await agent.read.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)
    ).json();
    expect(status.feedback.find((f: { id: string }) => f.id === ids[1])).toMatchObject({
      status: "open",
      history: [],
    });
    // Every other status still takes no message.
    const acknowledged = await triage(owner.read, { feedbackIds: [ids[1]], status: "acknowledged" });
    expect(acknowledged.status).toBe(200);
    expect((await triage(owner.read, { feedbackIds: [ids[1]], status: "open" })).status).toBe(200);
  });

  it("refuses bad input naming the field, a stranger with 403, and no sign-in with 402", async () => {
    const bad = await triage(owner.read, { feedbackIds: [ids[0]], status: "closed" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([
      { field: "status", message: expect.stringMatching(/one of/) },
    ]);
    const empty = await triage(owner.read, { feedbackIds: [], status: "spam" });
    expect((await empty.json()).errors[0].field).toBe("feedbackIds");
    expect((await triage(stranger, { feedbackIds: [ids[0]], status: "spam" })).status).toBe(403);
    const anonymous = await appFetch(
      `${APP}/api/namespace/feedback/status`,
      postJson({ namespace, feedbackIds: [ids[0]], status: "spam" }),
    );
    expect(anonymous.status).toBe(402);
  });

  it("filters and searches the inbox with highlights", async () => {
    const list = async (query: string) =>
      (await owner.read.fetch(`${APP}/api/namespace/list?namespace=${namespace}&${query}`)).json();
    expect((await list("status=needs_info")).feedback.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    const found = await list("q=crashing");
    expect(found.feedback.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect(found.feedback[0].highlights.title).toContainEqual({ text: "crashes", match: true });
  });
});

describe("export over HTTP", () => {
  it("streams the view as spreadsheet-safe CSV, as an attachment", async () => {
    const res = await owner.read.fetch(`${APP}/api/namespace/export?namespace=${namespace}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="triage-.*\.csv"/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    // A byte order mark first, so spreadsheets read UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.split("\r\n");
    expect(lines[0]).toMatch(/^id,namespace,type,status,labels,resolved,/);
    expect(lines[1]).toContain(ids[1]);
    expect(text).toContain('"Please, ""dark"" mode.\nThanks"');
    expect(text).toContain("'=SUM(1+1) crashes it.");
    expect(text).not.toMatch(/,=SUM/);
  });

  it("gives a filtered view as a JSON array of records", async () => {
    const res = await owner.read.fetch(
      `${APP}/api/namespace/export?namespace=${namespace}&format=json&type=feature`,
    );
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const records = await res.json();
    expect(records.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    expect(records[0]).toMatchObject({ status: "open", description: 'Please, "dark" mode.\nThanks' });
  });

  it("is the owner's only, and refuses an unknown format naming the field", async () => {
    expect((await stranger.fetch(`${APP}/api/namespace/export?namespace=${namespace}`)).status).toBe(403);
    const bad = await owner.read.fetch(`${APP}/api/namespace/export?namespace=${namespace}&format=xlsx`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].field).toBe("format");
  });
});

describe("a paid follow-up", () => {
  const followUp = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
    who.fetch(`${APP}/api/namespace/feedback/follow-up`, postJson(body));
  const address = (i: number) => devnet.accounts[i]!.address as `0x${string}`;

  it("lets the submitter answer the owner's question, once paid, and reopens the item", async () => {
    // ids[0] was set to needs_info above.
    const before = await chain.balanceOf(address(3));
    const res = await followUp(agent.pay, {
      feedbackId: ids[0],
      message: "Chromium 131, two items in the cart.",
      steps: ["Add two items", "Click Pay"],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      feedbackId: ids[0],
      status: "open",
      id: expect.stringMatching(/^ev_/),
    });
    expect(await chain.balanceOf(address(3))).toBe(before - 10_000n);
    const record = await (await owner.read.fetch(`${APP}/api/namespace/feedback?id=${ids[0]}`)).json();
    expect(record.status).toBe("open");
    expect(record.history.at(-1)).toMatchObject({
      kind: "follow_up",
      from: "needs_info",
      to: "open",
      message: "Chromium 131, two items in the cart.",
      details: { steps: ["Add two items", "Click Pay"] },
    });
  });

  it("is refused before any charge when nobody asked, or when the payer did not submit the item", async () => {
    const before = await chain.balanceOf(address(3));
    const unasked = await followUp(agent.pay, { feedbackId: ids[1], message: "More details." });
    expect(unasked.status).toBe(409);
    expect((await unasked.json()).type).toBe("/problems/not-awaiting-info");
    expect(await chain.balanceOf(address(3))).toBe(before);

    await triage(owner.read, { feedbackIds: [ids[1]], status: "needs_info", message: "Which theme?" });
    const strangerBefore = await chain.balanceOf(address(4));
    const theirs = await followUp(devnetX402Payer(devnet, 4, appFetch), {
      feedbackId: ids[1],
      message: "Not mine to answer.",
    });
    expect(theirs.status).toBe(403);
    expect(await chain.balanceOf(address(4))).toBe(strangerBefore);

    const bad = await followUp(agent.pay, { feedbackId: ids[1], message: "" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].field).toBe("message");
  });
});
