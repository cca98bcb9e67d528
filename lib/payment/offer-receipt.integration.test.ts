import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import {
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  extractReceiptPayload,
  findAcceptsObjectFromSignedOffer,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import { beforeAll, describe, expect, it } from "vitest";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// x402's offer-and-receipt extension on every paid operation, checked with the extension's own functions:
// each 402 carries the offered terms signed, each paid answer a signed receipt naming what was delivered,
// and the key is the one this origin publishes at /.well-known/did.json (its did:web).
const devnet = workerDevnet();
const owner = devnetX402Payer(devnet, 2, appFetch);
const ownerSignedIn = createSignInFetch(devnet.accounts[2]!.privateKey as `0x${string}`, appFetch);
const agent = devnetX402Payer(devnet, 3, appFetch);
const namespace = uniqueName("receipts");
let publicKey: JsonWebKey & { kty: string };
let kid: string;

beforeAll(async () => {
  const res = await appFetch(`${APP}/.well-known/did.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/did+json");
  const document = await res.json();
  expect(document.id).toBe(`did:web:${encodeURIComponent(new URL(APP).host)}`);
  const [method] = document.verificationMethod;
  expect(document.assertionMethod).toEqual([method.id]);
  expect(method.publicKeyJwk).toMatchObject({ kty: "EC", crv: "secp256k1" });
  expect(method.publicKeyJwk.d).toBeUndefined();
  publicKey = method.publicKeyJwk;
  kid = method.id;
});

/** Asks `path` without paying, and checks the 402's offer with the extension's verifier. */
async function offerOf(path: string, body: unknown) {
  const asked = await appFetch(`${APP}${path}`, postJson(body));
  expect(asked.status, await asked.clone().text()).toBe(402);
  const required = decodePaymentRequiredHeader(asked.headers.get("payment-required")!);
  const offers = extractOffersFromPaymentRequired(required);
  expect(offers).toHaveLength(1);
  const [decoded] = decodeSignedOffers(offers);
  expect(findAcceptsObjectFromSignedOffer(decoded!, required.accepts)).toEqual(required.accepts[0]);
  const verified = await verifyOfferSignatureJWS(offers[0] as JWSSignedOffer, publicKey);
  expect(verified).toMatchObject({
    resourceUrl: `${APP}${path}`,
    scheme: "exact",
    network: required.accepts[0]!.network,
    asset: required.accepts[0]!.asset,
    payTo: required.accepts[0]!.payTo,
    amount: required.accepts[0]!.amount,
  });
  expect(verified.validUntil).toBeGreaterThan(Date.now() / 1000);
  return decoded!;
}

/** Pays `path` and checks the answer's receipt: signed by the published key, naming what was delivered. */
async function receiptOf(payer: typeof agent, path: string, body: unknown) {
  const offer = await offerOf(path, body);
  const paid = await payer.fetch(`${APP}${path}`, postJson(body));
  expect(paid.status, await paid.clone().text()).toBe(200);
  const receipt = extractReceiptFromResponse(paid) as JWSSignedReceipt;
  expect(receipt.format).toBe("jws");
  expect(JSON.parse(Buffer.from(receipt.signature.split(".")[0]!, "base64url").toString())).toEqual({
    alg: "ES256K",
    kid,
  });
  const payload = await verifyReceiptSignatureJWS(receipt, publicKey);
  expect(verifyReceiptMatchesOffer(receipt, offer, [payer.address])).toBe(true);
  const settled = decodePaymentResponseHeader(paid.headers.get("payment-response")!);
  expect(payload).toMatchObject({
    version: 1,
    resourceUrl: `${APP}${path}`,
    network: settled.network,
    payer: payer.address,
    transaction: settled.transaction,
  });
  return { payload: payload as typeof payload & { delivered: unknown }, answer: await paid.json(), paid };
}

describe("x402 offers and receipts", () => {
  it("register: the receipt names the namespace", async () => {
    const { payload } = await receiptOf(owner, "/api/namespace/register", { namespace });
    expect(payload.delivered).toEqual({
      operation: "register",
      id: namespace,
      namespace,
      amount: "1000000",
    });
  });

  it("feedback: the receipt names the item and its namespace, and a resend gets the very same receipt", async () => {
    const body = { namespace, type: "bug", title: distinctTitle("Receipt"), description: "Paid and filed." };
    const { payload, answer, paid } = await receiptOf(agent, "/api/namespace/feedback", body);
    expect(payload.delivered).toEqual({ operation: "feedback", id: answer.id, namespace, amount: "10000" });
    expect(paid.headers.get("payment-response")).toBeTruthy();

    const again = { ...body, title: distinctTitle("Resent") };
    const asked = await appFetch(`${APP}/api/namespace/feedback`, postJson(again));
    const credential = await agent.sign(asked.headers.get("payment-required")!);
    const send = () =>
      appFetch(`${APP}/api/namespace/feedback`, postJson(again, { "payment-signature": credential }));
    const first = await send();
    const resent = await send();
    expect(first.status).toBe(200);
    expect(resent.status).toBe(200);
    expect(resent.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
    expect(extractReceiptFromResponse(resent)).toBeDefined();
  });

  it("two unpaid 402s of a route in a row carry the one signed offer, which still verifies", async () => {
    const body = () => ({
      namespace,
      type: "bug",
      title: distinctTitle("Offered"),
      description: "Asked without paying.",
    });
    const first = await offerOf("/api/namespace/feedback", body());
    const second = await offerOf("/api/namespace/feedback", body());
    // Signed once for every caller within a sixth of its validity; a 402 then costs no signature.
    expect(second.signedOffer).toEqual(first.signedOffer);
    expect(second.validUntil - Date.now() / 1000).toBeGreaterThan(45);
  });

  it("follow-up and a rewarded resolve: each receipt names the item", async () => {
    const filed = await agent.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, type: "bug", title: distinctTitle("Asked"), description: "It fails sometimes." }),
    );
    const { id } = await filed.json();
    const asked = await ownerSignedIn.fetch(
      `${APP}/api/namespace/feedback/status`,
      postJson({ namespace, feedbackIds: [id], status: "needs_info", message: "Which browser?" }),
    );
    expect(asked.status).toBe(200);
    const followUp = await receiptOf(agent, "/api/namespace/feedback/follow-up", {
      feedbackId: id,
      message: "Firefox 140, every time.",
    });
    expect(followUp.payload.delivered).toEqual({
      operation: "follow-up",
      id: followUp.answer.id,
      feedbackId: id,
      amount: "10000",
    });

    const resolved = await receiptOf(owner, "/api/namespace/resolve", {
      feedbackId: id,
      message: "Fixed, thank you",
      rewardAmount: "0.02",
    });
    expect(resolved.payload.delivered).toEqual({ operation: "resolve", id, namespace, amount: "20000" });
  });
});

describe("a receipt's signature", () => {
  it("fails verification once anything it names is changed", async () => {
    const body = {
      namespace,
      type: "feature",
      title: distinctTitle("Tamper"),
      description: "Change the id.",
    };
    const { paid } = await receiptOf(agent, "/api/namespace/feedback", body);
    const receipt = extractReceiptFromResponse(paid) as JWSSignedReceipt;
    const [header, , signature] = receipt.signature.split(".");
    const payload = extractReceiptPayload(receipt) as unknown as { delivered: { id: string } };
    payload.delivered.id = "fb_someone_elses";
    const forged = `${header}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${signature}`;
    await expect(
      verifyReceiptSignatureJWS({ format: "jws", signature: forged }, publicKey),
    ).rejects.toThrow();
  });
});
