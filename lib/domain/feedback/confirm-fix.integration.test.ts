import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payouts, webhookDeliveries } from "@/lib/db/schema";
import { webhookEnvelopeSchema } from "@/lib/schemas/webhook-events";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// The submitter's answer to a resolution, through the route, with real payments and real sign-in proofs.
const devnet = workerDevnet();
const evm = chainReader(devnet.x402.rpcUrl, devnet.x402.asset as `0x${string}`);
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const walletOf = (i: number) => ({
  pay: devnetX402Payer(devnet, i, appFetch),
  read: createSignInFetch(keyOf(i), appFetch),
});
const owner = walletOf(2);
const agent = walletOf(3);
const other = walletOf(5);
const stranger = createSignInFetch(keyOf(4), appFetch);

const namespace = uniqueName("confirm");

async function submit(by = agent) {
  const res = await by.pay.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({ namespace, type: "bug", title: distinctTitle("Pay button"), description: "Nothing happens." }),
  );
  expect(res.status).toBe(200);
  return (await res.json()).id as string;
}
const resolve = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/resolve`, postJson(body));
const confirm = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/feedback/confirm`, postJson(body));
const record = async (who: { fetch: typeof fetch }, id: string) =>
  (await who.fetch(`${APP}/api/namespace/feedback?id=${id}`)).json();

beforeAll(async () => {
  // The owner's webhook is a URL nothing listens on: these tests read what was queued for it.
  const body = { namespace, webhookUrl: "http://127.0.0.1:9/owner-hook" };
  expect((await owner.pay.fetch(`${APP}/api/namespace/register`, postJson(body))).status).toBe(200);
});

// Nothing listens at that URL: its deliveries must not stay due for the next file on a shared database (a
// worker pass sends two at a time to one host, and 127.0.0.1 is every test receiver's host).
afterAll(async () => {
  await (await getDb())
    .update(webhookDeliveries)
    .set({ status: "failed" })
    .where(and(eq(webhookDeliveries.namespace, namespace), eq(webhookDeliveries.status, "pending")));
});

/** The owner's webhook events about `id` of `type`, as queued, each checked against its published shape. */
async function queued(id: string, type: "feedback.confirmed" | "feedback.disputed") {
  const rows = await (await getDb())
    .select({ payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.namespace, namespace), eq(webhookDeliveries.eventType, type)));
  const events = rows.map((r) => webhookEnvelopeSchema(type).parse(r.payload));
  return events.filter((e) => e.data.id === id);
}

describe("confirming a fix", () => {
  it("is the submitter's alone, on a resolved item, and refuses bad input naming the field", async () => {
    const id = await submit();
    const early = await confirm(agent.read, { id, outcome: "fixed" });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ type: "/problems/not-resolved" });

    expect((await resolve(owner.read, { feedbackId: id, message: "Fixed in 2.4" })).status).toBe(200);
    for (const who of [owner.read, other.read, stranger]) {
      const res = await confirm(who, { id, outcome: "not_fixed", note: "still broken" });
      expect(res.status).toBe(403);
      // It learns nothing of the item beyond the refusal.
      expect(JSON.stringify(await res.json())).not.toContain("Fixed in 2.4");
    }
    const anonymous = await appFetch(
      `${APP}/api/namespace/feedback/confirm`,
      postJson({ id, outcome: "fixed" }),
    );
    expect(anonymous.status).toBe(402);
    expect((await confirm(agent.read, { id: "fb_nothing", outcome: "fixed" })).status).toBe(404);
    const bad = await confirm(agent.read, { id, outcome: "maybe" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([
      { field: "outcome", message: expect.stringMatching(/one of/) },
    ]);
    const long = await confirm(agent.read, { id, outcome: "fixed", note: "x".repeat(2001) });
    expect((await long.json()).errors).toEqual([
      { field: "note", message: expect.stringMatching(/at most 2000/) },
    ]);
    // Nothing changed on the way.
    expect(await record(owner.read, id)).toMatchObject({ status: "resolved", confirmation: null });
  });

  it("records fixed for the owner and the submitter, once per resolution", async () => {
    const id = await submit();
    expect((await resolve(owner.read, { feedbackId: id, message: "Fixed in 2.4" })).status).toBe(200);
    const res = await confirm(agent.read, { id, outcome: "fixed", note: "Works on 2.4." });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({ id, namespace, outcome: "fixed", status: "resolved" });

    for (const who of [owner.read, agent.read]) {
      const seen = await record(who, id);
      expect(seen).toMatchObject({
        status: "resolved",
        resolved: true,
        confirmation: { outcome: "fixed", note: "Works on 2.4.", at: answer.confirmedAt, current: true },
      });
      expect(seen.history.at(-1)).toMatchObject({
        kind: "confirmation",
        actor: agent.pay.address,
        from: null,
        to: null,
        message: "Works on 2.4.",
        details: { outcome: "fixed" },
      });
    }
    const mine = await (await agent.read.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)).json();
    expect(mine.feedback.find((f: { id: string }) => f.id === id).confirmation).toMatchObject({
      outcome: "fixed",
    });
    const confirmed = await (
      await owner.read.fetch(`${APP}/api/namespace/list?namespace=${namespace}&confirmation=confirmed`)
    ).json();
    expect(confirmed.feedback.map((f: { id: string }) => f.id)).toContain(id);
    // The owner's webhook hears of it once.
    expect((await queued(id, "feedback.confirmed")).map((e) => e.data)).toEqual([
      {
        id,
        namespace,
        note: "Works on 2.4.",
        submitter: agent.pay.address,
        resolvedAt: (await record(owner.read, id)).resolvedAt,
        answeredAt: answer.confirmedAt,
      },
    ]);

    for (const outcome of ["fixed", "not_fixed"]) {
      const again = await confirm(agent.read, { id, outcome });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ type: "/problems/already-confirmed" });
    }
    expect(await record(owner.read, id)).toMatchObject({ status: "resolved" });
  });

  it("reopens the item on not_fixed, with the note for the owner; a new resolution takes a new answer", async () => {
    const id = await submit();
    expect((await resolve(owner.read, { feedbackId: id, message: "Fixed in 2.4" })).status).toBe(200);
    const res = await confirm(agent.read, { id, outcome: "not_fixed", note: "Still nothing on Safari 18." });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: "not_fixed", status: "open" });
    const reopened = await record(owner.read, id);
    expect(reopened).toMatchObject({
      status: "open",
      resolved: false,
      resolveMessage: null,
      confirmation: { outcome: "not_fixed", note: "Still nothing on Safari 18.", current: true },
    });
    expect(reopened.history.at(-1)).toMatchObject({
      kind: "confirmation",
      from: "resolved",
      to: "open",
      message: "Still nothing on Safari 18.",
      details: { outcome: "not_fixed" },
    });
    // The owner's inbox has it open again.
    const open = await (
      await owner.read.fetch(`${APP}/api/namespace/list?namespace=${namespace}&resolved=false`)
    ).json();
    expect(open.feedback.map((f: { id: string }) => f.id)).toContain(id);
    // The inbox filters by the answer that still stands.
    const listed = async (confirmation: string) =>
      (
        await (
          await owner.read.fetch(
            `${APP}/api/namespace/list?namespace=${namespace}&confirmation=${confirmation}`,
          )
        ).json()
      ).feedback.map((f: { id: string }) => f.id) as string[];
    expect(await listed("disputed")).toContain(id);
    expect(await listed("confirmed")).not.toContain(id);
    const bad = await owner.read.fetch(`${APP}/api/namespace/list?namespace=${namespace}&confirmation=maybe`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].field).toBe("confirmation");
    expect((await queued(id, "feedback.disputed")).map((e) => e.data)).toMatchObject([
      { id, note: "Still nothing on Safari 18.", submitter: agent.pay.address },
    ]);
    expect(await queued(id, "feedback.confirmed")).toEqual([]);
    expect((await confirm(agent.read, { id, outcome: "fixed" })).status).toBe(409);

    // Resolved again: the dispute no longer stands, and the new resolution can be answered.
    expect((await resolve(owner.read, { feedbackId: id, message: "Fixed for Safari too" })).status).toBe(200);
    expect((await record(owner.read, id)).confirmation).toMatchObject({
      outcome: "not_fixed",
      current: false,
    });
    expect((await confirm(agent.read, { id, outcome: "fixed" })).status).toBe(200);
    expect((await record(agent.read, id)).confirmation).toMatchObject({ outcome: "fixed", current: true });
  });

  it("answers two answers sent at once to the same resolution once", async () => {
    const id = await submit();
    expect((await resolve(owner.read, { feedbackId: id })).status).toBe(200);
    const answers = await Promise.all([
      confirm(agent.read, { id, outcome: "fixed" }),
      confirm(agent.read, { id, outcome: "not_fixed", note: "no" }),
      confirm(agent.read, { id, outcome: "fixed" }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const seen = await record(owner.read, id);
    expect(seen.history.filter((e: { kind: string }) => e.kind === "confirmation")).toHaveLength(1);
  });

  it("never pays a reward twice: a disputed item resolved again is refused a second reward", async () => {
    const id = await submit();
    const paid = await resolve(owner.pay, { feedbackId: id, message: "Thanks", rewardAmount: "0.01" });
    expect(paid.status).toBe(200);
    expect((await confirm(agent.read, { id, outcome: "not_fixed", note: "Not fixed" })).status).toBe(200);
    const before = await evm.balanceOf(owner.pay.address);
    const again = await resolve(owner.pay, { feedbackId: id, rewardAmount: "0.01" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ type: "/problems/reward-already-paid" });
    expect(await evm.balanceOf(owner.pay.address)).toBe(before);
    const rows = await (await getDb()).select().from(payouts).where(eq(payouts.feedbackId, id));
    expect(rows.map((r) => r.status)).toEqual(["paid"]);
    // The reward stays on record after the dispute.
    expect(await record(agent.read, id)).toMatchObject({ rewardAmount: "0.01", status: "open" });
  });
});
