import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { eq } from "drizzle-orm";
import { recoverMessageAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { createX402Fetch } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerDevnet } from "@/testing/worker-devnet";

const devnet = workerDevnet();
const wallet = devnet.accounts[6]!;
const key = wallet.privateKey as `0x${string}`;
const payer = createX402Fetch({
  privateKey: key,
  network: devnet.x402.network as `${string}:${string}`,
  rpcUrl: devnet.x402.rpcUrl,
  asset: devnet.x402.asset,
  fetch: appFetch,
});
const reader = createSignInFetch(key, appFetch);

type Doc = {
  openapi: string;
  webhooks: Record<
    string,
    { post: { description: string; requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
  >;
  info: {
    version: string;
    description: string;
    contact: { url: string };
    "x-guidance": string;
  };
  tags: { name: string }[];
  "x-service-info": { docs: Record<string, string> };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, unknown> };
};
type Operation = {
  operationId: string;
  security?: unknown[];
  tags?: string[];
  parameters?: { in: string; name: string; example?: unknown; required: boolean }[];
  requestBody?: { content: Record<string, { schema: object; example?: unknown }> };
  "x-payment-info"?: {
    price: { mode: string; amount?: string; min?: string; max?: string; currency: string };
    protocols: object[];
    offers: object[];
  };
  responses: Record<string, { content: Record<string, { schema: { $ref: string }; example?: unknown }> }>;
};

let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Checks a real answer against the document: the status is documented and the body fits its schema. */
async function conforms(res: Response, path: string, method: "get" | "post" | "patch") {
  const operation = doc.paths[path]?.[method];
  expect(operation, `${method} ${path} is documented`).toBeDefined();
  const documented = operation!.responses[String(res.status)];
  expect(documented, `${method} ${path} documents ${res.status}`).toBeDefined();
  const type = res.headers.get("content-type")!;
  const media = documented!.content[type];
  expect(media, `${res.status} documents ${type}`).toBeDefined();
  const name = media!.schema.$ref.replace("#/components/schemas/", "");
  const body = await res.json();
  const validate = ajv.compile(doc.components.schemas[name]!);
  expect(validate(body), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return body;
}

beforeAll(async () => {
  const res = await appFetch(`${APP}/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
});

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document, version 0.1.0, with the submitter guidance", async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.1.0");
    expect(doc.info.description).toContain("Submit one issue per submission.");
    expect(doc.components.securitySchemes.siwx).toMatchObject({ in: "header", name: "SIGN-IN-WITH-X" });
  });

  it("documents every operation, the paid ones with price and both protocols", () => {
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ops.sort()).toEqual([
      "namespace_export",
      "namespace_feedback",
      "namespace_feedback_callback",
      "namespace_feedback_confirm",
      "namespace_feedback_follow_up",
      "namespace_feedback_get",
      "namespace_feedback_labels",
      "namespace_feedback_merge",
      "namespace_feedback_status",
      "namespace_feedback_unmerge",
      "namespace_insights",
      "namespace_known_issues",
      "namespace_known_issues_update",
      "namespace_list",
      "namespace_member_add",
      "namespace_member_remove",
      "namespace_members",
      "namespace_register",
      "namespace_resolve",
      "namespace_status",
      "namespace_transfer",
      "namespace_transfer_accept",
      "namespace_transfer_cancel",
      "webhook_deliveries",
      "webhook_get",
      "webhook_resend",
      "webhook_rotate_secret",
      "webhook_send_test",
      "webhook_update",
    ]);
    const price = (path: string) => doc.paths[path]!.post!["x-payment-info"]!;
    expect(price("/api/namespace/register").price).toEqual({ mode: "fixed", currency: "USD", amount: "1" });
    expect(price("/api/namespace/feedback").price).toEqual({
      mode: "fixed",
      currency: "USD",
      amount: "0.01",
    });
    expect(price("/api/namespace/resolve").price).toEqual({
      mode: "dynamic",
      currency: "USD",
      min: "0.000001",
      max: "2",
    });
    // MPP's discovery: one offer per way to pay, in base units; null where the request sets the price.
    expect(price("/api/namespace/feedback").offers).toEqual([
      {
        method: "tempo",
        intent: "charge",
        amount: "10000",
        currency: "0x20c000000000000000000000b9537d11c60e8b50",
      },
    ]);
    expect(price("/api/namespace/resolve").offers).toEqual([
      expect.objectContaining({ method: "tempo", intent: "charge", amount: null }),
    ]);
    expect(price("/api/namespace/feedback").protocols).toEqual([
      { x402: expect.objectContaining({ network: devnet.x402.network, amount: "10000" }) },
      {
        mpp: expect.objectContaining({
          method: "tempo",
          intent: "charge",
          currency: "0x20c000000000000000000000b9537d11c60e8b50",
        }),
      },
    ]);
    expect(doc.paths["/api/namespace/list"]!.get!.security).toEqual([{ siwx: [] }]);
    expect(doc.paths["/api/namespace/webhook"]!.patch!.security).toEqual([{ siwx: [] }]);
  });

  it("gives every operation tags and worked examples that fit its own schemas", () => {
    expect(doc.tags.map((t) => t.name)).toEqual(["Submitters", "Owners", "Webhooks"]);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method} ${path}`;
        expect(op.tags?.length, where).toBeGreaterThan(0);
        for (const tag of op.tags ?? [])
          expect(
            doc.tags.map((t) => t.name),
            where,
          ).toContain(tag);
        const success = op.responses["200"] ?? op.responses["202"];
        const media = success!.content["application/json"]!;
        expect(media.example, `${where} answer example`).toBeDefined();
        const answer = ajv.compile(doc.components.schemas[media.schema.$ref.split("/").pop()!]!);
        expect(answer(media.example), `${where}: ${ajv.errorsText(answer.errors)}`).toBe(true);
        if (op.requestBody) {
          const body = op.requestBody.content["application/json"]!;
          const takes = ajv.compile(body.schema);
          expect(takes(body.example), `${where} request: ${ajv.errorsText(takes.errors)}`).toBe(true);
        }
        for (const p of (op.parameters ?? []).filter((p) => p.in === "query" && p.required)) {
          expect(p.example, `${where} ?${p.name}`).toBeDefined();
        }
      }
    }
  });

  it("says who runs it, where its docs are and how an agent uses it, in the fields scanners read", () => {
    expect(doc.info.contact.url).toBe(APP);
    expect(doc.info["x-guidance"]).toContain("Idempotency-Key");
    expect(doc.info["x-guidance"].length).toBeLessThan(4000);
    expect(doc["x-service-info"].docs).toEqual({
      homepage: APP,
      apiReference: `${APP}/openapi.json`,
      llms: `${APP}/llms.txt`,
    });
    expect(doc.components.securitySchemes.siwx).toMatchObject({ "x-agentcash-auth-kind": "siwx" });
  });

  it("publishes every webhook event's body, which a real delivery of it fits", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      "digest.daily",
      "feedback.confirmed",
      "feedback.created",
      "feedback.disputed",
      "feedback.resolved",
      "feedback.status_changed",
      "member.added",
      "member.removed",
      "namespace.transfer_proposed",
      "namespace.transferred",
      "report.merged",
      "report.reopened",
      "report.resolved",
      "report.status_changed",
      "reward.paid",
      "webhook.test",
    ]);
    const schemaOf = (event: string) => {
      const name = doc.webhooks[event]!.post.requestBody.content["application/json"]!.schema.$ref;
      return ajv.compile(doc.components.schemas[name.replace("#/components/schemas/", "")]!);
    };
    const created = {
      type: "feedback.created",
      timestamp: "2026-11-21T10:00:00.000Z",
      data: {
        id: "fb_x",
        namespace: "acme",
        type: "bug",
        title: "Broken",
        severity: null,
        createdAt: "2026-11-21T10:00:00.000Z",
      },
    };
    expect(schemaOf("feedback.created")(created)).toBe(true);
    expect(schemaOf("feedback.created")({ ...created, type: "reward.paid" })).toBe(false);
    expect(schemaOf("reward.paid")({ ...created, type: "reward.paid" })).toBe(false);
    // A reporter's callback event: what it may read of its own report, and not a field more.
    const resolved = {
      type: "report.resolved",
      timestamp: "2026-11-21T10:00:00.000Z",
      data: {
        id: "fb_x",
        namespace: "acme",
        status: "resolved",
        resolvedAt: "2026-11-21T10:00:00.000Z",
        message: "Fixed",
        reward: { amount: "0.25", txHash: "0xabc" },
      },
    };
    expect(schemaOf("report.resolved")(resolved)).toBe(true);
    expect(schemaOf("report.resolved")({ ...resolved, data: { ...resolved.data, labels: ["x"] } })).toBe(
      false,
    );
    expect(doc.webhooks["report.resolved"]!.post.description).toContain("callbackSecret");
  });

  it("carries the API security headers", async () => {
    const res = await appFetch(`${APP}/openapi.json`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("real answers fit the document", () => {
  const namespace = uniqueName("oa");
  let id = "";

  it("402, 400, 200 of submit", async () => {
    const body = { namespace, type: "bug", title: "Broken", description: "It does not work at all." };
    const unpaid = await appFetch(`${APP}/api/namespace/feedback`, postJson(body));
    const problem = await conforms(unpaid, "/api/namespace/feedback", "post");
    expect(problem).toMatchObject({ status: 402, price: { amount: "0.01", currency: "USD" } });
    expect(problem.docs).toEqual({ guide: `${APP}/llms.txt`, openapi: `${APP}/openapi.json` });
    const bad = await appFetch(`${APP}/api/namespace/feedback`, postJson({ ...body, title: 1 }));
    await conforms(bad, "/api/namespace/feedback", "post");
    const paid = await payer.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ ...body, metadata: { a: 1 } }),
    );
    id = (await conforms(paid, "/api/namespace/feedback", "post")).id;
  });

  it("200 of register, the full record, list, resolve and status", async () => {
    const reg = await payer.fetch(`${APP}/api/namespace/register`, postJson({ namespace }));
    expect((await conforms(reg, "/api/namespace/register", "post")).existingFeedbackLinked).toBe(1);
    const record = await reader.fetch(`${APP}/api/namespace/feedback?id=${id}`);
    expect(await conforms(record, "/api/namespace/feedback", "get")).toMatchObject({ id, namespace });
    const list = await reader.fetch(`${APP}/api/namespace/list?namespace=${namespace}`);
    expect((await conforms(list, "/api/namespace/list", "get")).count).toBe(1);
    const resolve = await reader.fetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: id, message: "Fixed" }),
    );
    expect(await conforms(resolve, "/api/namespace/resolve", "post")).toMatchObject({ message: "Fixed" });
    const status = await reader.fetch(`${APP}/api/namespace/status?namespace=${namespace}`);
    const mine = await conforms(status, "/api/namespace/status", "get");
    expect(mine.feedback[0].resolution.message).toBe("Fixed");
  });

  it("402 (sign-in) and 404 of the free reads", async () => {
    await conforms(
      await appFetch(`${APP}/api/namespace/list?namespace=${namespace}`),
      "/api/namespace/list",
      "get",
    );
    const missing = await reader.fetch(`${APP}/api/namespace/feedback?id=fb_nothing`);
    expect(missing.status).toBe(404);
    await conforms(missing, "/api/namespace/feedback", "get");
  });
});

describe("the webhook settings endpoints fit the document", () => {
  const namespace = uniqueName("oh");
  const webhook = `${APP}/api/namespace/webhook`;
  const patch = (body: unknown): RequestInit => ({ ...postJson(body), method: "PATCH" });

  beforeAll(async () => {
    expect((await payer.fetch(`${APP}/api/namespace/register`, postJson({ namespace }))).status).toBe(200);
  });

  it("200 of read, update and rotate; 400 of a bad URL; 403 for a stranger", async () => {
    const read = await conforms(
      await reader.fetch(`${webhook}?namespace=${namespace}`),
      "/api/namespace/webhook",
      "get",
    );
    expect(read).toMatchObject({
      namespace,
      url: null,
      format: "standard",
      events: [
        "feedback.created",
        "feedback.resolved",
        "feedback.status_changed",
        "feedback.confirmed",
        "feedback.disputed",
        "reward.paid",
      ],
      digest: "off",
    });
    const url = "http://localhost:9/feedback";
    const updated = await conforms(
      await reader.fetch(webhook, patch({ namespace, url })),
      "/api/namespace/webhook",
      "patch",
    );
    expect(updated).toMatchObject({ url, secret: read.secret });
    const bad = await reader.fetch(webhook, patch({ namespace, url: "ftp://hooks.example.com" }));
    expect((await conforms(bad, "/api/namespace/webhook", "patch")).errors[0].field).toBe("url");
    const rotated = await conforms(
      await reader.fetch(`${webhook}/rotate`, postJson({ namespace })),
      "/api/namespace/webhook/rotate",
      "post",
    );
    expect(rotated.secret).not.toBe(read.secret);
    const stranger = createSignInFetch(devnet.accounts[7]!.privateKey as `0x${string}`, appFetch);
    const refused = await stranger.fetch(`${webhook}?namespace=${namespace}`);
    expect(refused.status).toBe(403);
    await conforms(refused, "/api/namespace/webhook", "get");
  });

  it("202 of a test event, which the delivery log then shows; 409 without a URL", async () => {
    const queued = await conforms(
      await reader.fetch(`${webhook}/test`, postJson({ namespace })),
      "/api/namespace/webhook/test",
      "post",
    );
    const log = await conforms(
      await reader.fetch(`${webhook}/deliveries?namespace=${namespace}`),
      "/api/namespace/webhook/deliveries",
      "get",
    );
    expect(log.deliveries[0]).toMatchObject({ id: queued.id, eventType: "webhook.test", status: "pending" });
    await reader.fetch(webhook, patch({ namespace, url: null }));
    const none = await reader.fetch(`${webhook}/test`, postJson({ namespace }));
    expect(none.status).toBe(409);
    await conforms(none, "/api/namespace/webhook/test", "post");
  });

  it("200 of alert settings and 400 naming a bad one; 409, 202 and 404 of a re-send", async () => {
    const alerts = { format: "slack", events: ["feedback.created"], digest: "daily" };
    const url = "http://localhost:9/feedback";
    const set = await conforms(
      await reader.fetch(webhook, patch({ namespace, url, ...alerts })),
      "/api/namespace/webhook",
      "patch",
    );
    expect(set).toMatchObject({ url, ...alerts });
    const bad = await reader.fetch(webhook, patch({ namespace, events: ["webhook.test"] }));
    expect((await conforms(bad, "/api/namespace/webhook", "patch")).errors[0].field).toBe("events.0");
    const resend = (id: string) => reader.fetch(`${webhook}/deliveries/resend`, postJson({ namespace, id }));
    const queued = await (await reader.fetch(`${webhook}/test`, postJson({ namespace }))).json();
    const pending = await resend(queued.id);
    expect(pending.status).toBe(409);
    await conforms(pending, "/api/namespace/webhook/deliveries/resend", "post");
    await (await getDb())
      .update(webhookDeliveries)
      .set({ status: "failed" })
      .where(eq(webhookDeliveries.id, queued.id));
    const copy = await conforms(await resend(queued.id), "/api/namespace/webhook/deliveries/resend", "post");
    expect(copy).toMatchObject({ resentFrom: queued.id, eventType: "webhook.test", status: "pending" });
    const unknown = await resend("msg_nothing");
    expect(unknown.status).toBe(404);
    await conforms(unknown, "/api/namespace/webhook/deliveries/resend", "post");
  });
});

describe("discovery for agents", () => {
  it("lists the paid resources at /.well-known/x402", async () => {
    const res = await appFetch(`${APP}/.well-known/x402`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.resources).toEqual([
      `${APP}/api/namespace/feedback`,
      `${APP}/api/namespace/register`,
      `${APP}/api/namespace/feedback/follow-up`,
      `${APP}/api/namespace/resolve`,
    ]);
    expect(body.items[0]).toMatchObject({
      method: "POST",
      price: { amount: "0.01", currency: "USD" },
      accepts: [
        {
          scheme: "exact",
          network: devnet.x402.network,
          asset: devnet.x402.asset,
          payTo: devnet.x402.payTo,
          amount: "10000",
        },
      ],
      mpp: { method: "tempo", intent: "charge", currency: "0x20c000000000000000000000b9537d11c60e8b50" },
    });
    expect(body.instructions).toContain("Idempotency-Key");
    expect(body.mpp.resources).toHaveLength(4);
    // A reward paid with x402 goes where the resolve's 402 sends it: the refund wallet.
    expect(body.items[3].accepts).toEqual([expect.objectContaining({ payTo: devnet.x402.refundWallet })]);
  });

  it("proves at /.well-known/x402 that every wallet it is paid to is its own, as x402scan verifies", async () => {
    const body = await (await appFetch(`${APP}/.well-known/x402`)).json();
    const origin = new URL(APP).origin;
    // x402scan: each proof is an EIP-191 signature of the origin; a payTo is verified when one recovers to it.
    const signers = await Promise.all(
      body.ownershipProofs.map(async (signature: `0x${string}`) =>
        (await recoverMessageAddress({ message: origin, signature })).toLowerCase(),
      ),
    );
    const paidTo = [
      ...body.items.flatMap((i: { accepts: { payTo: string }[] }) => i.accepts.map((a) => a.payTo)),
      devnet.tempo.recipient,
    ].map((a: string) => a.toLowerCase());
    expect(new Set(paidTo).size).toBeGreaterThanOrEqual(2);
    for (const address of paidTo) expect(signers, address).toContain(address);
    // Signed for another origin, the same proofs prove nothing.
    const elsewhere = await recoverMessageAddress({
      message: "https://someone-else.example",
      signature: body.ownershipProofs[0],
    });
    expect(paidTo).not.toContain(elsewhere.toLowerCase());
  });

  it("explains the service in /llms.txt", async () => {
    const res = await appFetch(`${APP}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await res.text();
    for (const needle of [
      "@x402/fetch",
      "mppx",
      "SIGN-IN-WITH-X",
      "0.01 USD",
      "/api/namespace/status",
      "429",
    ]) {
      expect(text).toContain(needle);
    }
    expect(text).toContain("Remove sensitive data from context before submitting.");
  });
});
