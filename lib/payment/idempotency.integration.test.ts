import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { authorizationOf, nonceBurner } from "@/testing/eip3009";
import { workerDevnet } from "@/testing/worker-devnet";

// Idempotency-Key on paid calls: a retry under the same key gets the first answer and is never
// charged again, even with a payment it signed anew.
const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const payerFor = (i: number) => devnetX402Payer(devnet, i, appFetch);
const agent = payerFor(4);
const url = `${APP}/api/namespace/feedback`;
const body = (title = "Sent once, answered twice") => ({
  namespace: uniqueName("idem"),
  type: "bug",
  title,
  description: "The agent lost the answer and tried again with a new payment.",
});

/** A freshly signed x402 payment for this body. */
async function newPayment(payer: ReturnType<typeof payerFor>, input: unknown) {
  const asked = await appFetch(url, postJson(input));
  expect(asked.status).toBe(402);
  return payer.sign(asked.headers.get("payment-required")!);
}

const send = (input: unknown, signature: string, key?: string) =>
  appFetch(
    url,
    postJson(input, {
      "payment-signature": signature,
      ...(key === undefined ? {} : { "idempotency-key": key }),
    }),
  );

const rowsOf = async (signature: string) => {
  const { nonce } = authorizationOf(signature);
  const rows = await (await getDb()).select().from(payments).where(eq(payments.payer, agent.address));
  return rows.filter((r) => r.paymentKey.endsWith(nonce.toLowerCase()));
};

describe("Idempotency-Key on a paid call", () => {
  it("answers a retry with a newly signed payment with the first answer, and never claims it", async () => {
    const key = randomUUID();
    const input = body();
    const first = await send(input, await newPayment(agent, input), key);
    expect(first.status).toBe(200);
    const answer = await first.json();
    const before = await chain.balanceOf(agent.address);

    const again = await newPayment(agent, input);
    const retry = await send(input, again, `"${key}"`);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(answer);
    expect(retry.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
    expect(await chain.balanceOf(agent.address)).toBe(before);
    expect(await rowsOf(again)).toEqual([]);
  });

  it("keeps a key as long as its payment: a retry days later still gets the first answer, uncharged", async () => {
    const key = randomUUID();
    const input = body();
    const signature = await newPayment(agent, input);
    const first = await send(input, signature, key);
    expect(first.status).toBe(200);
    const [row] = await rowsOf(signature);
    const longAgo = new Date(Date.now() - 3 * 86_400_000);
    await (await getDb())
      .update(payments)
      .set({ createdAt: longAgo, updatedAt: longAgo })
      .where(eq(payments.id, row!.id));
    const before = await chain.balanceOf(agent.address);
    const retry = await send(input, await newPayment(agent, input), key);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(await first.json());
    expect(await chain.balanceOf(agent.address)).toBe(before);
  });

  it("refuses the same key with another body (409), charging nothing", async () => {
    const key = randomUUID();
    const input = body();
    expect((await send(input, await newPayment(agent, input), key)).status).toBe(200);
    const before = await chain.balanceOf(agent.address);
    const other = body("Another report under the same key");
    const res = await send(other, await newPayment(agent, other), key);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      type: "/problems/idempotency-key-reused",
      paymentId: expect.any(String),
    });
    expect(await chain.balanceOf(agent.address)).toBe(before);
  });

  it("charges once when two retries with two new payments race under one key", async () => {
    const key = randomUUID();
    const input = body();
    const [a, b] = [await newPayment(agent, input), await newPayment(agent, input)];
    const before = await chain.balanceOf(agent.address);
    const answers = await Promise.all([send(input, a, key), send(input, b, key)]);
    const statuses = answers.map((r) => r.status).sort();
    expect([
      [200, 200],
      [200, 503],
    ]).toContainEqual(statuses);
    expect(await chain.balanceOf(agent.address)).toBe(before - 10_000n);
    const ids = await Promise.all(
      answers.filter((r) => r.status === 200).map(async (r) => (await r.json()).id),
    );
    expect(new Set(ids).size).toBe(1);
  });

  it("is each payer's own: another wallet under the same key pays for its own request", async () => {
    const key = randomUUID();
    const input = body();
    const other = payerFor(5);
    expect((await send(input, await newPayment(agent, input), key)).status).toBe(200);
    const theirs = await send(input, await newPayment(other, input), key);
    expect(theirs.status).toBe(200);
  });

  it("frees the key when the payment under it failed: the retry pays", async () => {
    const key = randomUUID();
    const input = body();
    const burnt = await newPayment(agent, input);
    await nonceBurner(devnet, devnet.accounts[4]!.privateKey).cancel(authorizationOf(burnt).nonce);
    expect((await send(input, burnt, key)).status).toBe(402);
    const before = await chain.balanceOf(agent.address);
    const retry = await send(input, await newPayment(agent, input), key);
    expect(retry.status).toBe(200);
    expect(await chain.balanceOf(agent.address)).toBe(before - 10_000n);
  });

  it("refuses a malformed key with a 400 naming it, before anything is charged", async () => {
    const input = body();
    for (const key of ["", " ", "a b", "é", "x".repeat(256)]) {
      const res = await send(input, await newPayment(agent, input), key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect((await res.json()).errors).toEqual([{ field: "Idempotency-Key", message: expect.any(String) }]);
    }
  });

  it("works the same over MPP: a new credential under the key is never broadcast", async () => {
    const mpp = createMppFetch(devnet.tempo, devnet.accounts[3]!.privateKey, appFetch);
    const key = randomUUID();
    const input = body();
    const first = await appFetch(
      url,
      postJson(input, {
        authorization: await mpp.createCredential(await appFetch(url, postJson(input))),
        "idempotency-key": key,
      }),
    );
    expect(first.status).toBe(200);
    const again = await mpp.createCredential(await appFetch(url, postJson(input)));
    const retry = await appFetch(url, postJson(input, { authorization: again, "idempotency-key": key }));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(await first.json());
    const challengeId = JSON.parse(Buffer.from(again.slice(8), "base64url").toString()).challenge.id;
    const rows = await (await getDb())
      .select()
      .from(payments)
      .where(eq(payments.paymentKey, `mpp:${challengeId}`));
    expect(rows).toEqual([]);
  });
});
