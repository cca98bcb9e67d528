import { decodePaymentRequiredHeader } from "@x402/core/http";
import { generatePaymentId, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { describe, expect, it } from "vitest";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";

// x402's `payment-identifier` extension, paid with the official client's support for it: the id a
// payment carries is the request's Idempotency-Key, one store, bound to the proven payer, never charged
// twice, and the two must agree when both are sent.
const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const url = `${APP}/api/namespace/feedback`;
const PRICE = 10_000n;

/** An official x402 client of devnet wallet `index` that attaches whatever id `next.id` holds. */
function payerWith(index: number) {
  const next: { id?: string } = {};
  const payer = devnetX402Payer(devnet, index, appFetch, { paymentIdentifier: () => next.id });
  const pay = (body: unknown, id: string | undefined, headers: Record<string, string> = {}) => {
    next.id = id;
    return payer.fetch(url, postJson(body, headers));
  };
  /** Signs for a decoded 402 as it stands: the hook attaches nothing. */
  const sign = (required: Parameters<typeof payer.pay>[0]) => {
    next.id = undefined;
    return payer.pay(required);
  };
  return { pay, sign, balance: () => chain.balanceOf(payer.address) };
}

const first = payerWith(4);
const other = payerWith(0);
const body = (title = "Retried with its payment id") => ({
  namespace: uniqueName("payid"),
  type: "bug",
  title,
  description: "The client lost the answer and paid again under the same payment identifier.",
});

describe("x402 payment-identifier", () => {
  it("is declared in every 402, optional", async () => {
    const asked = await appFetch(url, postJson(body()));
    expect(asked.status).toBe(402);
    const required = decodePaymentRequiredHeader(asked.headers.get("payment-required")!);
    expect(required.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } });
  });

  it("sent again with the same body: the first answer, one charge", async () => {
    const id = generatePaymentId();
    const input = body();
    const before = await first.balance();
    const stored = await first.pay(input, id);
    expect(stored.status, await stored.clone().text()).toBe(200);
    const again = await first.pay(input, id);
    expect(again.status, await again.clone().text()).toBe(200);
    expect(await again.json()).toEqual(await stored.json());
    expect(await first.balance()).toBe(before - PRICE);
  });

  it("with another body: 409, and nothing charged for it", async () => {
    const id = generatePaymentId();
    expect((await first.pay(body(), id)).status).toBe(200);
    const before = await first.balance();
    const reused = await first.pay(body("Another report, same id"), id);
    expect(reused.status).toBe(409);
    expect(await reused.json()).toMatchObject({ type: "/problems/idempotency-key-reused" });
    expect(await first.balance()).toBe(before);
  });

  it("is the same key as Idempotency-Key: a retry by either answers the first", async () => {
    const key = generatePaymentId();
    const input = body();
    const before = await first.balance();
    const byHeader = await first.pay(input, undefined, { "idempotency-key": key });
    expect(byHeader.status).toBe(200);
    const byId = await first.pay(input, key);
    expect(byId.status).toBe(200);
    const byBoth = await first.pay(input, key, { "idempotency-key": key });
    expect(byBoth.status).toBe(200);
    const answer = await byHeader.json();
    expect(await byId.json()).toEqual(answer);
    expect(await byBoth.json()).toEqual(answer);
    expect(await first.balance()).toBe(before - PRICE);
  });

  it("differing from Idempotency-Key: a 400 naming it, before any charge", async () => {
    const before = await first.balance();
    const res = await first.pay(body(), generatePaymentId(), { "idempotency-key": generatePaymentId() });
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem.errors).toEqual([
      { field: "Idempotency-Key", message: expect.stringMatching(/payment-identifier/) },
    ]);
    expect(await first.balance()).toBe(before);
  });

  it("is the payer's own: another wallet's payment under the same id is a payment of its own", async () => {
    const id = generatePaymentId();
    const input = body();
    const stored = await first.pay(input, id);
    expect(stored.status).toBe(200);
    const before = await other.balance();
    const theirs = await other.pay(input, id);
    expect(theirs.status, await theirs.clone().text()).toBe(200);
    expect((await theirs.json()).id).not.toBe((await stored.json()).id);
    expect(await other.balance()).toBe(before - PRICE);
  });

  it("malformed: a 402 naming the extension, and nothing charged", async () => {
    const asked = await appFetch(url, postJson(body()));
    const required = decodePaymentRequiredHeader(asked.headers.get("payment-required")!);
    (required.extensions![PAYMENT_IDENTIFIER] as { info: { id?: string } }).info.id = "short";
    const payload = await first.sign(required);
    const before = await first.balance();
    const res = await appFetch(
      url,
      postJson(body(), {
        "payment-signature": Buffer.from(JSON.stringify(payload)).toString("base64"),
      }),
    );
    expect(res.status).toBe(402);
    const problem = await res.json();
    expect(problem.errors.map((e: { field: string }) => e.field)).toEqual([
      `PAYMENT-SIGNATURE.extensions.${PAYMENT_IDENTIFIER}`,
    ]);
    expect(await first.balance()).toBe(before);
  });
});
