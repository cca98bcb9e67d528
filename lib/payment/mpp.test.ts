import { decodePaymentRequiredHeader } from "@x402/core/http";
import { Challenge, Credential, Receipt } from "mppx";
import { Mppx, tempo as tempoServer } from "mppx/server";
import { erc20Abi, type Hash, parseEventLogs } from "viem";
import { getTransactionReceipt } from "viem/actions";
import { describe, expect, inject, it } from "vitest";
import { createMppFetch } from "@/lib/clients/mpp-payer";
import { tempoClient } from "@/lib/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/lib/testing/app-fetch";

const devnet = inject("devnet");
const tempo = devnet.tempo;
const wallet = devnet.accounts[6]!;
const payer = createMppFetch(tempo, wallet.privateKey as `0x${string}`, appFetch);
const chain = tempoClient(tempo);
const item = (namespace: string) => ({
  namespace,
  type: "feature",
  title: "Pay with MPP",
  description: "An agent that only speaks MPP.",
});

async function usdcE(owner: string) {
  return chain
    .request({
      method: "eth_call",
      params: [
        {
          to: tempo.currency,
          data: `0x70a08231000000000000000000000000${owner.slice(2).toLowerCase()}` as `0x${string}`,
        },
        "latest",
      ],
    })
    .then(BigInt);
}

async function transfersOf(hash: string) {
  const receipt = await getTransactionReceipt(chain, { hash: hash as Hash });
  return parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" })
    .filter((l) => l.address.toLowerCase() === tempo.currency)
    .map((l) => l.args);
}

describe("MPP beside x402", () => {
  it("offers both protocols in one 402", async () => {
    const res = await appFetch(`${APP}/api/namespace/feedback`, postJson(item(uniqueName())));
    expect(res.status).toBe(402);
    expect(decodePaymentRequiredHeader(res.headers.get("payment-required")!).accepts[0]!.amount).toBe(
      "10000",
    );
    const challenge = Challenge.fromResponse(res);
    expect(challenge).toMatchObject({ method: "tempo", intent: "charge" });
    expect(challenge.request).toMatchObject({
      amount: "10000",
      currency: tempo.currency,
      recipient: tempo.recipient,
      methodDetails: { chainId: tempo.chainId },
    });
    expect((await res.json()).protocols).toEqual(["x402", "mpp"]);
  });

  it("submits paid with MPP, twice in a row, moving exactly the price to the recipient", async () => {
    for (let i = 0; i < 2; i++) {
      const before = await usdcE(wallet.address);
      const res = await payer.fetch(`${APP}/api/namespace/feedback`, postJson(item(uniqueName())));
      expect(res.status).toBe(200);
      const receipt = Receipt.fromResponse(res);
      expect(receipt.status).toBe("success");
      expect(await transfersOf(receipt.reference)).toEqual([
        { from: wallet.address, to: tempo.recipient, value: 10_000n },
      ]);
      expect(await usdcE(wallet.address)).toBe(before - 10_000n);
    }
  });

  it("registers with MPP: the payer owns the namespace", async () => {
    const name = uniqueName("mpp");
    const res = await payer.fetch(`${APP}/api/namespace/register`, postJson({ namespace: name }));
    expect(res.status).toBe(200);
    expect((await res.json()).ownerWallet).toBe(wallet.address);
  });

  it("refuses a replayed credential, one for another route, a malformed one, and two protocols at once", async () => {
    const body = item(uniqueName());
    expect((await payer.fetch(`${APP}/api/namespace/feedback`, postJson(body))).status).toBe(200);
    const credential = payer.sent.at(-1)!;
    const before = await usdcE(wallet.address);

    const replay = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson(body, { authorization: credential }),
    );
    expect(replay.status).toBe(409);
    expect((await replay.json()).type).toBe("https://paymentauth.org/problems/invalid-challenge");

    const otherRoute = await appFetch(
      `${APP}/api/namespace/register`,
      postJson({ namespace: uniqueName("x") }, { authorization: credential }),
    );
    expect(otherRoute.status).toBe(402);
    expect((await otherRoute.json()).type).toBe("https://paymentauth.org/problems/invalid-challenge");

    const malformed = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson(body, { authorization: "Payment x" }),
    );
    expect(malformed.status).toBe(402);
    expect((await malformed.json()).type).toBe("https://paymentauth.org/problems/malformed-credential");

    const both = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson(body, { authorization: credential, "payment-signature": "e30=" }),
    );
    expect(both.status).toBe(400);
    expect(await usdcE(wallet.address)).toBe(before);
  });

  it("refuses a credential for an expired challenge with MPP's payment-expired problem", async () => {
    // A challenge this server could have issued (same secret and realm), already past its expiry.
    const issuer = Mppx.create({
      methods: [
        tempoServer.charge({ currency: tempo.currency, recipient: tempo.recipient, getClient: () => chain }),
      ],
      secretKey: process.env.MPP_SECRET_KEY!,
      realm: new URL(APP).host,
    });
    const expired = await issuer.challenge.tempo.charge({
      amount: "0.01",
      scope: "POST /api/namespace/feedback",
      supportedModes: ["pull"],
      expires: new Date(Date.now() - 60_000).toISOString(),
    });
    const credential = Credential.serialize({
      challenge: expired,
      payload: { type: "transaction", signature: "0x76" },
    });
    const res = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson(item(uniqueName()), { authorization: credential }),
    );
    expect(res.status).toBe(402);
    expect((await res.json()).type).toBe("https://paymentauth.org/problems/payment-expired");
  });
});
