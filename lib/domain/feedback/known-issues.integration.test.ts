import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedback, payments, webhookDeliveries } from "@/lib/db/schema";
import { callbackEnvelopeSchema } from "@/lib/schemas/callback";
import { deliverDueWebhooks } from "@/lib/webhooks/worker";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerDevnet } from "@/testing/worker-devnet";

// Known issues, end to end: the owner publishes them, anyone reads titles only, an agent pays to add a
// "me too" (x402 and MPP) that joins the issue, and its callback hears when the issue is resolved.
const devnet = workerDevnet();
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;
const owner = { pay: devnetX402Payer(devnet, 2, appFetch), read: createSignInFetch(keyOf(2), appFetch) };
const agent = { pay: devnetX402Payer(devnet, 3, appFetch), read: createSignInFetch(keyOf(3), appFetch) };
const mppAgent = createMppFetch(devnet.tempo, keyOf(6), appFetch);
const stranger = createSignInFetch(keyOf(4), appFetch);
const namespace = uniqueName("known");
const other = uniqueName("known-b");

const known = (who: { fetch: typeof fetch } | null, query: string) =>
  (who?.fetch ?? appFetch)(`${APP}/api/namespace/known-issues?namespace=${namespace}${query}`);
const settle = (who: { fetch: typeof fetch }, body: Record<string, unknown>) =>
  who.fetch(`${APP}/api/namespace/known-issues`, { ...postJson({ namespace, ...body }), method: "PATCH" });
async function submit(by: { fetch: typeof fetch }, body: Record<string, unknown>, ns = namespace) {
  const res = await by.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({ namespace: ns, type: "bug", ...body }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { id: string; callbackSecret?: string; joinedKnownIssue?: string | null };
}

const received: { body: string; headers: Record<string, string> }[] = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    received.push({ body, headers: req.headers as Record<string, string> });
    res.writeHead(200).end();
  });
});

const issues = {} as Record<"export" | "login" | "hidden" | "spam", string>;
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  for (const name of [namespace, other]) {
    expect(
      (await owner.pay.fetch(`${APP}/api/namespace/register`, postJson({ namespace: name }))).status,
    ).toBe(200);
  }
  issues.export = (
    await submit(agent.pay, {
      title: "CSV export drops the header row",
      description: "The secret-token-7781 column header is missing from the exported file.",
    })
  ).id;
  issues.login = (
    await submit(agent.pay, {
      title: "Login loops back to the sign-in page",
      description: "Endless redirect.",
    })
  ).id;
  issues.hidden = (
    await submit(agent.pay, { title: "Admin password shown in the logs", description: "Sensitive." })
  ).id;
  issues.spam = (
    await submit(agent.pay, { title: "Buy cheap tokens now", description: "Spam spam spam." })
  ).id;
  const spam = await owner.read.fetch(
    `${APP}/api/namespace/feedback/status`,
    postJson({ namespace, feedbackIds: [issues.spam], status: "spam" }),
  );
  expect(spam.status).toBe(200);
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

describe("known issues", () => {
  it("are unpublished by default: the same 404 as an unknown namespace, except to the owner", async () => {
    for (const who of [null, stranger, agent.read]) {
      const res = await known(who, "");
      expect(res.status).toBe(404);
      const unknown = await (who?.fetch ?? appFetch)(
        `${APP}/api/namespace/known-issues?namespace=nobody-here`,
      );
      expect(unknown.status).toBe(404);
      expect((await res.json()).detail).toBe((await unknown.json()).detail.replace("nobody-here", namespace));
    }
    for (const who of [stranger, agent.read]) expect((await known(who, "&view=owner")).status).toBe(403);
    expect((await known(null, "&view=owner")).status).toBe(402);
    const preview = await (await known(owner.read, "&view=owner")).json();
    expect(preview).toMatchObject({ namespace, published: false });
    expect(preview.issues.map((i: { id: string }) => i.id)).toContain(issues.hidden);
  });

  it("are published and hidden by the owner alone, all or none", async () => {
    for (const who of [stranger, agent.read]) {
      expect((await settle(who, { published: true })).status).toBe(403);
    }
    const unsigned = await appFetch(`${APP}/api/namespace/known-issues`, {
      ...postJson({ namespace, published: true }),
      method: "PATCH",
    });
    expect(unsigned.status).toBe(402);
    const foreign = await settle(owner.read, { hide: [issues.hidden, "fb_elsewhere"] });
    // As every triage call names an item that is not the namespace's: 404, naming the field.
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).errors.map((e: { field: string }) => e.field)).toEqual(["hide.1"]);
    const empty = await settle(owner.read, {});
    expect((await empty.json()).errors[0].field).toBe("published");
    expect((await known(null, "")).status).toBe(404);

    const set = await settle(owner.read, { published: true, hide: [issues.hidden] });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({
      namespace,
      published: true,
      hidden: [issues.hidden],
      awaitingReview: 0,
    });
  });

  it("show anyone each issue's title, type, status, reports and resolution only; search matches titles", async () => {
    const listed = await (await known(null, "")).json();
    expect(listed.published).toBeUndefined();
    const ids = listed.issues.map((i: { id: string }) => i.id);
    expect(ids.sort()).toEqual([issues.export, issues.login].sort());
    for (const issue of listed.issues) {
      expect(Object.keys(issue).sort()).toEqual([
        "id",
        "note",
        "reports",
        "resolvedAt",
        "status",
        "title",
        "type",
      ]);
    }
    const text = JSON.stringify(listed);
    for (const secret of ["secret-token-7781", agent.pay.address, "Admin password", "cheap tokens"]) {
      expect(text).not.toContain(secret);
    }
    const found = await (await known(null, "&q=export")).json();
    expect(found.issues.map((i: { id: string }) => i.id)).toEqual([issues.export]);
    // A description is never searched: it would answer whether a private word is in it.
    expect((await (await known(null, "&q=secret-token-7781")).json()).issues).toEqual([]);
    const paged = await (await known(null, "&limit=1")).json();
    expect(paged.issues).toHaveLength(1);
    const next = await (await known(null, `&limit=1&cursor=${encodeURIComponent(paged.nextCursor)}`)).json();
    expect([...paged.issues, ...next.issues].map((i: { id: string }) => i.id).sort()).toEqual(ids.sort());
    expect((await known(null, "&limit=0")).status).toBe(400);
  });

  it("take a paid 'me too' over x402 and MPP that joins the issue; anything else is refused before the charge", async () => {
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(payments))[0]!.n;
    const before = await count();
    for (const duplicateOf of [issues.hidden, issues.spam, "fb_nothing", issues.export]) {
      const ns = duplicateOf === issues.export ? other : namespace;
      const res = await agent.pay.fetch(
        `${APP}/api/namespace/feedback`,
        postJson({ namespace: ns, type: "bug", title: "Me too", description: "Same here.", duplicateOf }),
      );
      expect(res.status, duplicateOf).toBe(400);
      expect((await res.json()).errors[0].field).toBe("duplicateOf");
    }
    expect(await count()).toBe(before);

    const viaX402 = await submit(agent.pay, {
      title: "Export has no header",
      description: "Same as the known issue.",
      duplicateOf: issues.export,
    });
    const viaMpp = await submit(mppAgent, {
      title: "Header row missing in CSV",
      description: "Me too, the same header.",
      duplicateOf: issues.export,
      callbackUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/me-too`,
    });
    expect(viaX402.joinedKnownIssue).toBe(issues.export);
    expect(viaMpp.joinedKnownIssue).toBe(issues.export);
    const listed = await (await known(null, "&q=export")).json();
    expect(listed.issues[0]).toMatchObject({ id: issues.export, reports: 3 });
    // The "me too" reports are members of the issue, never issues of their own on the list.
    expect(JSON.stringify(await (await known(null, "")).json())).not.toContain("Header row missing");
    const rows = await db.select().from(feedback).where(eq(feedback.groupId, issues.export));
    expect(rows.map((r) => [r.id, r.groupKind, r.duplicateOf]).sort()).toEqual(
      [
        [viaX402.id, "merged", issues.export],
        [viaMpp.id, "merged", issues.export],
      ].sort(),
    );

    // The owner resolves the issue: its "me too" reports are resolved with it, reading the public note (never
    // the message to the issue's own reporter), and the one with a callback hears of it, naming the issue.
    const resolved = await owner.read.fetch(
      `${APP}/api/namespace/resolve`,
      postJson({
        feedbackId: issues.export,
        message: "Thanks, this one is for you",
        publicNote: "Fixed in 3.1",
      }),
    );
    expect(resolved.status).toBe(200);
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.namespace, namespace));
    await deliverDueWebhooks({ namespace });
    const [event] = received.map((r) => new Webhook(viaMpp.callbackSecret!).verify(r.body, r.headers));
    const parsed = callbackEnvelopeSchema("report.resolved").parse(event);
    expect(parsed.data).toMatchObject({
      id: viaMpp.id,
      status: "resolved",
      knownIssue: issues.export,
      message: "Fixed in 3.1",
    });
    expect(received.map((r) => r.body).join("")).not.toContain("this one is for you");
    for (const [who, report] of [
      [agent.read, viaX402.id],
      [createSignInFetch(keyOf(6), appFetch), viaMpp.id],
    ] as const) {
      const status = await (await who.fetch(`${APP}/api/namespace/status?namespace=${namespace}`)).json();
      const mine = status.feedback.find((f: { id: string }) => f.id === report);
      expect(mine).toMatchObject({ status: "resolved", resolution: { message: "Fixed in 3.1" } });
    }
    const publicNote = await (await known(null, "&q=export")).json();
    expect(publicNote.issues[0]).toMatchObject({ status: "resolved", note: "Fixed in 3.1" });

    // A resolved issue takes no "me too": refused before any charge.
    const beforeLate = await count();
    const late = await agent.pay.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({
        namespace,
        type: "bug",
        title: "Me too",
        description: "Same here.",
        duplicateOf: issues.export,
      }),
    );
    expect(late.status).toBe(400);
    expect((await late.json()).errors[0]).toMatchObject({ field: "duplicateOf" });
    expect(await count()).toBe(beforeLate);
  });

  it("list a report filed after publishing only once the owner has seen it", async () => {
    const later = await submit(agent.pay, {
      title: "Jane Roe, +1 555 0199, cannot log in",
      description: "A customer's name and number in a title, filed after the list went public.",
    });
    expect(JSON.stringify(await (await known(null, "")).json())).not.toContain("Jane Roe");
    const preview = await (await known(owner.read, "&view=owner")).json();
    expect(preview.issues.find((i: { id: string }) => i.id === later.id)).toMatchObject({
      awaitingReview: true,
    });
    // A "me too" of it is refused before any charge while it is not listed.
    const meToo = await agent.pay.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: "Me too", description: "Same.", duplicateOf: later.id }),
    );
    expect(meToo.status).toBe(400);
    const listed = await settle(owner.read, { unhide: [later.id] });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ published: true, awaitingReview: 0 });
    expect(JSON.stringify(await (await known(null, "")).json())).toContain("Jane Roe");
  });

  it("are withdrawn at once: the same 404 again", async () => {
    expect((await settle(owner.read, { published: false })).status).toBe(200);
    expect((await known(null, "")).status).toBe(404);
    const res = await agent.pay.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: "Me too", description: "Same.", duplicateOf: issues.login }),
    );
    expect(res.status).toBe(400);
  });
});
