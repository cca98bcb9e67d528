import { expect, test } from "@playwright/test";
import {
  extractJWSHeader,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import {
  APP,
  challenge,
  decodeRequired,
  devnet,
  expectProblem,
  expectSettled,
  ISO_MS,
  item,
  PRICE,
  postJson,
  register,
  submit,
  uniqueName,
  url,
  wallet,
} from "./fixtures";

const signInInfo = (required: ReturnType<typeof decodeRequired>) => {
  const ext = required.extensions?.[SIGN_IN_WITH_X] as { info: { nonce: string; uri: string } } | undefined;
  expect(ext, "extensions[sign-in-with-x]").toBeDefined();
  return ext!.info;
};
// This file pays only from account 0.
const payer = wallet(0);

test.describe("402 challenges", () => {
  for (const [path, body, amount, price] of [
    ["register", { namespace: uniqueName() }, "1000000", "1"],
    ["feedback", item(uniqueName()), "10000", "0.01"],
  ] as const) {
    test(`POST ${path} without payment is a 402 naming ${amount} base units`, async () => {
      const res = await fetch(url(path), postJson(body));
      const problem = await expectProblem(res, 402);
      expect(problem.title).toBe("Payment required");
      expect(problem).toMatchObject({ price: { amount: price, currency: "USD" } });
      const required = decodeRequired(res.headers.get("payment-required")!);
      expect(required.x402Version).toBe(2);
      expect(required.resource.url).toBe(url(path));
      expect(required.accepts).toHaveLength(1);
      expect(required.accepts[0]).toMatchObject({
        scheme: "exact",
        network: devnet.x402.network,
        asset: devnet.x402.asset,
        amount,
        payTo: devnet.x402.payTo,
      });
    });
  }

  for (const path of ["list?namespace=acme-app", "status", "feedback?id=fb_anything"]) {
    test(`GET ${path} without a proof is a 402 "Authentication Required" with a sign-in nonce`, async () => {
      const res = await fetch(url(path));
      const problem = await expectProblem(res, 402);
      expect(problem.title).toBe("Authentication Required");
      const required = decodeRequired(res.headers.get("payment-required")!);
      expect(required.x402Version).toBe(2);
      const info = signInInfo(required);
      expect(info.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
      expect(info.uri).toBe(url(path));
      // A fresh nonce for every challenge.
      const again = decodeRequired((await fetch(url(path))).headers.get("payment-required")!);
      expect(signInInfo(again).nonce).not.toBe(info.nonce);
    });
  }
});

test.describe("signed offers and receipts (x402 offer-and-receipt)", () => {
  test("an agent verifies the 402's offer and the answer's receipt from this origin's did:web alone", async () => {
    const namespace = uniqueName();
    const body = item(namespace);
    const asked = await fetch(url("feedback"), postJson(body));
    const [offer] = extractOffersFromPaymentRequired(decodeRequired(asked.headers.get("payment-required")!));
    // No key given: the verifier resolves the JWS kid (did:web) at this origin's /.well-known/did.json.
    const terms = await verifyOfferSignatureJWS(offer as JWSSignedOffer);
    expect(terms).toMatchObject({ resourceUrl: url("feedback"), amount: "10000", payTo: devnet.x402.payTo });
    const res = await payer.pay(url("feedback"), postJson(body));
    expect(res.status).toBe(200);
    const receipt = extractReceiptFromResponse(res) as JWSSignedReceipt;
    const did = `did:web:${encodeURIComponent(new URL(APP).host)}`;
    expect(extractJWSHeader(receipt.signature)).toMatchObject({
      alg: "ES256K",
      kid: expect.stringMatching(`^${did}#`),
    });
    const { id } = await res.json();
    expect(await verifyReceiptSignatureJWS(receipt)).toMatchObject({
      resourceUrl: url("feedback"),
      payer: payer.address,
      delivered: { operation: "feedback", id, namespace, amount: "10000" },
    });
  });
});

test.describe("paid flows move exactly the price", () => {
  test("a submission moves 0.01 USDC payer → payTo and answers the contract's keys", async () => {
    const before = await payer.balance();
    const namespace = uniqueName();
    const res = await payer.pay(url("feedback"), postJson(item(namespace)));
    await expectSettled(res, payer.address, PRICE.feedback);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["createdAt", "id", "namespace", "registered"]);
    expect(body).toMatchObject({ namespace, registered: false });
    expect(body.id).toEqual(expect.any(String));
    expect(body.createdAt).toMatch(ISO_MS);
    expect(Math.abs(Date.parse(body.createdAt) - Date.now())).toBeLessThan(60_000);
    expect(await payer.balance()).toBe(before - PRICE.feedback);
  });

  test("registering moves 1 USDC, makes the payer owner and links the earlier items", async () => {
    const namespace = uniqueName("reg-");
    await submit(payer, item(namespace));
    await submit(payer, item(namespace, { type: "feature", title: "Second" }));
    const before = await payer.balance();
    const res = await payer.pay(url("register"), postJson({ namespace, description: "Acme app" }));
    await expectSettled(res, payer.address, PRICE.register);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual([
      "createdAt",
      "existingFeedbackLinked",
      "namespace",
      "ownerWallet",
    ]);
    expect(body).toMatchObject({ namespace, ownerWallet: payer.address, existingFeedbackLinked: 2 });
    expect(body.createdAt).toMatch(ISO_MS);
    expect(await payer.balance()).toBe(before - PRICE.register);

    // Submissions now report the name as registered.
    expect((await submit(payer, item(namespace))).registered).toBe(true);
  });

  test("registering a fresh name links nothing", async () => {
    const body = await register(payer, { namespace: uniqueName("new-") });
    expect(body.existingFeedbackLinked).toBe(0);
  });

  test("registering a taken name is a 409 before any payment", async () => {
    const namespace = uniqueName("taken-");
    await register(payer, { namespace });
    const before = await payer.balance();
    const res = await payer.pay(url("register"), postJson({ namespace }));
    const problem = await expectProblem(res, 409);
    expect(problem.errors).toEqual([{ field: "namespace", message: expect.any(String) }]);
    expect(res.headers.get("payment-response")).toBeNull();
    expect(await payer.balance()).toBe(before);
  });
});

test.describe("replayed payments", () => {
  test("a PAYMENT-SIGNATURE that already paid a submission gets its answer again, never a second charge", async () => {
    const body = item(uniqueName());
    const signature = await payer.sign(await challenge("feedback", body));
    const before = await payer.balance();
    const first = await fetch(url("feedback"), postJson(body, { "payment-signature": signature }));
    await expectSettled(first, payer.address, PRICE.feedback);
    const answer = await first.json();
    expect(await payer.balance()).toBe(before - PRICE.feedback);

    // An agent that lost the answer sends the same request again: it gets the same answer.
    const again = await fetch(url("feedback"), postJson(body, { "payment-signature": signature }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(answer);
    expect(again.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
    // For a different body, the spent credential buys nothing.
    const other = await fetch(
      url("feedback"),
      postJson(item(uniqueName()), { "payment-signature": signature }),
    );
    const problem = await expectProblem(other, 409);
    expect(problem.detail).toMatch(/already paid for another request/);
    expect(await payer.balance()).toBe(before - PRICE.feedback);
  });

  // The header is read before its signature is checked, and its extensions are signed by nobody: a JSON schema
  // in them is anyone's. Run, this one would backtrack 2^50 times on the id and stop the server's event loop.
  test("a JSON schema sent beside the payment identifier is never run: the call is paid once, the server answers", async () => {
    const body = item(uniqueName());
    const signed = JSON.parse(
      Buffer.from(await payer.sign(await challenge("feedback", body)), "base64").toString(),
    );
    const id = `${"a".repeat(50)}-${uniqueName("", 12)}`;
    signed.extensions = {
      ...signed.extensions,
      "payment-identifier": {
        info: { required: false, id },
        schema: { type: "object", properties: { id: { type: "string", pattern: "^(a|a)+$" } } },
      },
    };
    const header = Buffer.from(JSON.stringify(signed)).toString("base64");
    const before = await payer.balance();
    const paid = await fetch(url("feedback"), postJson(body, { "payment-signature": header }));
    await expectSettled(paid, payer.address, PRICE.feedback);
    expect((await fetch(`${APP}/healthz`)).status).toBe(200);
    // The identifier is the service's to read: the same call under it gets its answer again.
    const again = await fetch(url("feedback"), postJson(body, { "payment-signature": header }));
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe((await paid.json()).id);
    expect(await payer.balance()).toBe(before - PRICE.feedback);
  });

  test("a PAYMENT-SIGNATURE that registered a name does not register another", async () => {
    const signature = await payer.sign(await challenge("register", { namespace: uniqueName() }));
    const before = await payer.balance();
    const first = await fetch(
      url("register"),
      postJson({ namespace: uniqueName() }, { "payment-signature": signature }),
    );
    await expectSettled(first, payer.address, PRICE.register);
    const replay = await fetch(
      url("register"),
      postJson({ namespace: uniqueName() }, { "payment-signature": signature }),
    );
    expect([402, 409]).toContain(replay.status);
    expect(await payer.balance()).toBe(before - PRICE.register);
  });

  test("a payment signed for a submission does not pay for a registration", async () => {
    const signature = await payer.sign(await challenge("feedback", item(uniqueName())));
    const before = await payer.balance();
    const res = await fetch(
      url("register"),
      postJson({ namespace: uniqueName() }, { "payment-signature": signature }),
    );
    await expectProblem(res, 402);
    expect(await payer.balance()).toBe(before);
  });
});
