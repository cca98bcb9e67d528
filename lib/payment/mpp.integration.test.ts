import { decodePaymentRequiredHeader } from "@x402/core/http";
import { eq } from "drizzle-orm";
import { Challenge, Credential, Receipt } from "mppx";
import { Mppx, tempo as tempoServer } from "mppx/server";
import { erc20Abi, fromRlp, type Hash, type Hex, parseEventLogs } from "viem";
import { getTransactionReceipt } from "viem/actions";
import { Actions, Transaction } from "viem/tempo";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { workerDevnet } from "@/testing/worker-devnet";

const devnet = workerDevnet();
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

/**
 * The same signed transaction in other bytes: a one-digit change that still reads as one RLP list and
 * that viem decodes to the same transaction (an empty string written as an empty list, a signature's v
 * of 0x2b for 0x1b), so it serializes back to the original.
 */
async function otherEncodingOf(serialized: Hex): Promise<Hex> {
  for (let i = 4; i < serialized.length; i++) {
    for (let digit = 0; digit < 16; digit++) {
      const other = `${serialized.slice(0, i)}${digit.toString(16)}${serialized.slice(i + 1)}` as Hex;
      if (other === serialized) continue;
      try {
        fromRlp(`0x${other.slice(4)}`);
        if ((await Transaction.serialize(Transaction.deserialize(other) as never)) === serialized) {
          return other;
        }
      } catch {}
    }
  }
  throw new Error("no other encoding of this transaction reads the same");
}

describe("MPP beside x402", () => {
  it("offers both protocols in one 402", async () => {
    const res = await appFetch(`${APP}/api/namespace/feedback`, postJson(item(uniqueName())));
    expect(res.status).toBe(402);
    expect(decodePaymentRequiredHeader(res.headers.get("payment-required")!).accepts[0]!.amount).toBe(
      "10000",
    );
    const challenge = Challenge.fromResponse(res);
    // The realm is the public host's name, without its port (what mppx's own validator expects).
    expect(challenge).toMatchObject({ method: "tempo", intent: "charge", realm: new URL(APP).hostname });
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

  it("answers a credential sent again as the first time, and never charges it twice", async () => {
    const body = item(uniqueName());
    const first = await payer.fetch(`${APP}/api/namespace/feedback`, postJson(body));
    expect(first.status).toBe(200);
    const answer = await first.json();
    const credential = payer.sent.at(-1)!;
    const before = await usdcE(wallet.address);

    // The same request with the same payment: the same answer, the same receipt, no new charge.
    const again = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson(body, { authorization: credential }),
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(answer);
    expect(Receipt.fromResponse(again).reference).toBe(Receipt.fromResponse(first).reference);

    // Later still, when the challenge and the signed transaction have long expired: still its answer.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3_600_000 });
    try {
      const late = await appFetch(
        `${APP}/api/namespace/feedback`,
        postJson(body, { authorization: credential }),
      );
      expect(late.status).toBe(200);
      expect(await late.json()).toEqual(answer);
    } finally {
      vi.useRealTimers();
    }

    // The same payment for another body or another route buys nothing more.
    const other = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson({ ...body, title: "Another report" }, { authorization: credential }),
    );
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({
      type: "https://paymentauth.org/problems/invalid-challenge",
      resultId: answer.id,
    });
    const otherRoute = await appFetch(
      `${APP}/api/namespace/register`,
      postJson({ namespace: uniqueName("x") }, { authorization: credential }),
    );
    expect(otherRoute.status).toBe(409);
    expect(await usdcE(wallet.address)).toBe(before);
  });

  it("gives every ask a challenge of its own, even two in the same millisecond, and both pay", async () => {
    const bodies = [item(uniqueName()), item(uniqueName())];
    // The clock stands still: both challenges expire at the same instant, with the same price.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    let asks: Response[];
    try {
      asks = await Promise.all(bodies.map((b) => appFetch(`${APP}/api/namespace/feedback`, postJson(b))));
    } finally {
      vi.useRealTimers();
    }
    const [first, second] = asks.map((r) => Challenge.fromResponse(r));
    expect(first!.expires).toBe(second!.expires);
    expect(first!.id).not.toBe(second!.id);
    for (const [i, asked] of asks.entries()) {
      const credential = await payer.createCredential(asked);
      const res = await appFetch(
        `${APP}/api/namespace/feedback`,
        postJson(bodies[i], { authorization: credential }),
      );
      expect(res.status, await res.clone().text()).toBe(200);
    }
  });

  it("refuses a credential for another route, a malformed one, and two protocols at once", async () => {
    const body = item(uniqueName());
    const asked = await appFetch(`${APP}/api/namespace/feedback`, postJson(body));
    const credential = await payer.createCredential(asked);
    const before = await usdcE(wallet.address);

    const otherRoute = await appFetch(
      `${APP}/api/namespace/register`,
      postJson({ namespace: uniqueName("x") }, { authorization: credential }),
    );
    expect(otherRoute.status).toBe(402);
    expect((await otherRoute.json()).type).toMatch(
      /^https:\/\/paymentauth\.org\/problems\/invalid-(challenge|payload)$/,
    );

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

  it("refuses payloads that do not decode with a 402 naming the field, never a 5xx, and claims nothing", async () => {
    const body = item(uniqueName());
    const asked = await appFetch(`${APP}/api/namespace/feedback`, postJson(body));
    const challenge = Challenge.fromResponse(asked);
    const signed = Credential.deserialize(await payer.createCredential(asked)).payload as {
      signature: string;
    };
    const cases: [string, unknown][] = [
      ["payload.type", { type: "hash", hash: `0x${"00".repeat(32)}` }],
      ["payload.type", { type: "proof", signature: "0x00" }],
      ["payload.signature", { type: "transaction", signature: "0x7612" }],
      ["payload.signature", { type: "transaction", signature: "0x02f8" }],
      ["payload.signature", { type: "transaction", signature: 42 }],
      ["payload.signature", { type: "transaction", signature: `${signed.signature.slice(0, -20)}` }],
      ["payload.signature", { type: "transaction", signature: `${signed.signature}00` }],
      // The very transaction in bytes of its own that a lenient reader decodes the same.
      [
        "payload.signature",
        { type: "transaction", signature: await otherEncodingOf(signed.signature as Hex) },
      ],
    ];
    for (const [field, payload] of cases) {
      const credential = Credential.serialize({ challenge, payload: payload as never });
      const res = await appFetch(
        `${APP}/api/namespace/feedback`,
        postJson(body, { authorization: credential }),
      );
      expect(res.status, JSON.stringify(payload)).toBe(402);
      const problem = await res.json();
      expect(problem.type, JSON.stringify(payload)).toMatch(/^https:\/\/paymentauth\.org\/problems\//);
      if (problem.errors) expect(problem.errors[0].field).toBe(field);
    }
    // Changes to the wire JSON that mppx's own reading would let through or choke on.
    const wire = JSON.parse(
      Buffer.from((await payer.createCredential(asked)).slice(8), "base64url").toString(),
    );
    const wired: [string, (w: Record<string, Record<string, unknown>>) => void][] = [
      [
        "challenge.opaque",
        (w) => {
          w.challenge!.opaque = `${w.challenge!.opaque}x`;
        },
      ],
      [
        "challenge.extra",
        (w) => {
          w.challenge!.extra = 1;
        },
      ],
      [
        "extra",
        (w) => {
          (w as Record<string, unknown>).extra = 1;
        },
      ],
      [
        "challenge.description",
        (w) => {
          delete w.challenge!.description;
        },
      ],
      [
        "source",
        (w) => {
          (w as Record<string, unknown>).source = null;
        },
      ],
      [
        "source",
        (w) => {
          (w as Record<string, unknown>).source = `D${String(w.source).slice(1)}`;
        },
      ],
    ];
    for (const [field, change] of wired) {
      const copy = structuredClone(wire);
      change(copy);
      const res = await appFetch(
        `${APP}/api/namespace/feedback`,
        postJson(body, {
          authorization: `Payment ${Buffer.from(JSON.stringify(copy)).toString("base64url")}`,
        }),
      );
      expect(res.status, field).toBe(402);
      const problem = await res.json();
      if (problem.errors) expect(problem.errors[0].field).toBe(field);
    }
    const rows = await (await getDb())
      .select()
      .from(payments)
      .where(eq(payments.paymentKey, `mpp:${challenge.id}`));
    expect(rows).toEqual([]);
  });

  it("refuses a payment whose transaction cannot pay (the payer emptied its wallet) with a 402, never a retry", async () => {
    const body = item(uniqueName());
    const asked = await appFetch(`${APP}/api/namespace/feedback`, postJson(body));
    const credential = await payer.createCredential(asked);
    const owner = tempoClient(tempo, wallet.privateKey as `0x${string}`);
    const all = await usdcE(wallet.address);
    const parking = devnet.accounts[5]!;
    await Actions.token.transferSync(owner, { token: tempo.currency, to: parking.address, amount: all });
    try {
      const res = await appFetch(
        `${APP}/api/namespace/feedback`,
        postJson(body, { authorization: credential }),
      );
      expect(res.status).toBe(402);
      const problem = await res.json();
      // Refused by its simulation, or (when the chain's simulation lets it through) mined and reverted:
      // either way a final 402 that moved no money, and nothing stored.
      expect(problem.detail).toMatch(/would fail on chain|not charged/);
      expect(res.headers.get("retry-after")).toBeNull();
      const challengeId = Credential.deserialize(credential).challenge.id;
      const rows = await (await getDb())
        .select()
        .from(payments)
        .where(eq(payments.paymentKey, `mpp:${challengeId}`));
      expect(rows.map((r) => r.status)).not.toContain("claimed");
      expect(rows.map((r) => r.resultId)).toEqual(rows.map(() => null));
    } finally {
      const back = tempoClient(tempo, parking.privateKey as `0x${string}`);
      await Actions.token.transferSync(back, { token: tempo.currency, to: wallet.address, amount: all });
    }
  });

  it("refuses a credential for an expired challenge with MPP's payment-expired problem", async () => {
    // A challenge this server could have issued (same secret and realm), already past its expiry.
    const issuer = Mppx.create({
      methods: [
        tempoServer.charge({ currency: tempo.currency, recipient: tempo.recipient, getClient: () => chain }),
      ],
      secretKey: process.env.MPP_SECRET_KEY!,
      realm: new URL(APP).hostname,
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

  it("tells a payment whose signed transaction lapsed that it expired, in its own words, and charges nothing", async () => {
    const url = `${APP}/api/namespace/feedback`;
    const body = item(uniqueName());
    const asked = await appFetch(url, postJson(body));
    const credential = await payer.createCredential(asked);
    const before = await usdcE(wallet.address);
    // The transaction lapses 25 s after it is signed, the challenge 5 minutes after it is issued: a minute
    // later the challenge still holds, and only the transaction has expired (a network that was down, a late retry).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    try {
      const res = await appFetch(url, postJson(body, { authorization: credential }));
      expect(res.status).toBe(402);
      const problem = await res.json();
      expect(problem.detail).toContain("has expired");
      expect(problem.detail).not.toContain("must expire within");
      expect(problem.errors).toEqual([expect.objectContaining({ field: "payload.signature" })]);
    } finally {
      vi.useRealTimers();
    }
    expect(await usdcE(wallet.address)).toBe(before);
  });
});
