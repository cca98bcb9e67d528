import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { SignatureEnvelope, TxEnvelopeTempo } from "ox/tempo";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";

// An Idempotency-Key answers only its proven payer: a credential that merely names the victim's wallet,
// without the victim's signature, gets the ordinary refusal and never the victim's stored answer.
const finishes = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/domain/feedback/submit-feedback", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/domain/feedback/submit-feedback")>();
  return {
    ...real,
    finishSubmission: (...args: Parameters<typeof real.finishSubmission>) => {
      finishes.count++;
      return real.finishSubmission(...args);
    },
  };
});

const devnet = workerDevnet();
const url = `${APP}/api/namespace/feedback`;
const body = () => ({
  namespace: uniqueName("proof"),
  type: "bug",
  title: "Mine alone",
  description: "Stored under my Idempotency-Key.",
});
beforeEach(() => {
  finishes.count = 0;
});

const victimX402 = devnetX402Payer(devnet, 5, appFetch);
const attackerX402 = devnetX402Payer(devnet, 6, appFetch);
const x402Chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);

/** The attacker's own signed x402 payment for `input`, rewritten to name `from` as its payer. */
async function x402NamingVictim(input: unknown, signature: "another key's" | "garbage") {
  const asked = await appFetch(url, postJson(input));
  const header = await attackerX402.sign(asked.headers.get("payment-required")!);
  const payload = JSON.parse(Buffer.from(header, "base64").toString());
  payload.payload.authorization.from = victimX402.address;
  if (signature === "garbage") payload.payload.signature = `0x${"11".repeat(64)}1b`;
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}

const x402Send = (input: unknown, credential: string, key: string) =>
  appFetch(url, postJson(input, { "payment-signature": credential, "idempotency-key": key }));

describe("an Idempotency-Key under x402", () => {
  for (const signature of ["another key's", "garbage"] as const) {
    it(`refuses a credential naming the victim with ${signature === "garbage" ? "a garbage" : signature} signature: no stored answer, no finish`, async () => {
      const key = randomUUID();
      const input = body();
      const first = await victimX402.fetch(url, postJson(input, { "idempotency-key": key }));
      expect(first.status).toBe(200);
      const answer = await first.json();
      expect(finishes.count).toBe(1);
      const before = await x402Chain.balanceOf(victimX402.address);

      const forged = await x402Send(input, await x402NamingVictim(input, signature), key);
      const text = await forged.clone().text();
      expect(forged.status, text).toBe(402);
      expect(text).not.toContain(answer.id);
      expect(forged.headers.get("payment-response")).toBeNull();
      expect(await forged.json()).toMatchObject({
        type: "/problems/payment-invalid",
        errors: [{ field: "PAYMENT-SIGNATURE.payload.signature", message: expect.any(String) }],
      });
      expect(finishes.count).toBe(1);

      // The victim's own retry under the key still gets its answer, and is not charged again.
      const retry = await victimX402.fetch(url, postJson(input, { "idempotency-key": key }));
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual(answer);
      expect(await x402Chain.balanceOf(victimX402.address)).toBe(before);
    });
  }
});

const victimMpp = createMppFetch(devnet.tempo, devnet.accounts[5]!.privateKey, appFetch);
const attackerMpp = createMppFetch(devnet.tempo, devnet.accounts[6]!.privateKey, appFetch);

/**
 * The attacker's own signed MPP payment for `input`, re-wrapped so that it reads as the victim's: its
 * signature put in an access-key envelope that names the victim's wallet as the account it acts for.
 */
async function mppNamingVictim(input: unknown) {
  const credential = await attackerMpp.createCredential(await appFetch(url, postJson(input)));
  const wire = JSON.parse(Buffer.from(credential.slice("Payment ".length), "base64url").toString());
  const tx = TxEnvelopeTempo.deserialize(wire.payload.signature as `0x76${string}`);
  const keychain = SignatureEnvelope.from({
    type: "keychain",
    userAddress: victimMpp.address,
    inner: tx.signature!,
    version: "v2",
  });
  const { signature: _, from: __, ...unsigned } = tx;
  wire.payload.signature = TxEnvelopeTempo.serialize(unsigned, { signature: keychain });
  wire.source = `did:pkh:eip155:${devnet.tempo.chainId}:${victimMpp.address}`;
  return `Payment ${Buffer.from(JSON.stringify(wire)).toString("base64url")}`;
}

describe("an Idempotency-Key under MPP", () => {
  it("refuses a transaction naming the victim without the victim's signature: no stored answer, no finish", async () => {
    const key = randomUUID();
    const input = body();
    const first = await appFetch(
      url,
      postJson(input, {
        authorization: await victimMpp.createCredential(await appFetch(url, postJson(input))),
        "idempotency-key": key,
      }),
    );
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(finishes.count).toBe(1);

    const forged = await mppNamingVictim(input);
    const res = await appFetch(url, postJson(input, { authorization: forged, "idempotency-key": key }));
    const text = await res.clone().text();
    expect(res.status, text).toBe(402);
    expect(text).not.toContain(answer.id);
    expect(res.headers.get("payment-receipt")).toBeNull();
    expect(await res.json()).toMatchObject({
      errors: [{ field: "payload.signature", message: expect.stringMatching(/does not prove/) }],
    });
    expect(finishes.count).toBe(1);
    const challengeId = JSON.parse(Buffer.from(forged.slice(8), "base64url").toString()).challenge.id;
    const rows = await (await getDb())
      .select()
      .from(payments)
      .where(eq(payments.paymentKey, `mpp:${challengeId}`));
    expect(rows).toEqual([]);

    // The victim's own retry under the key, with a new credential, still gets its answer.
    const again = await victimMpp.createCredential(await appFetch(url, postJson(input)));
    const retry = await appFetch(url, postJson(input, { authorization: again, "idempotency-key": key }));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(answer);
  });
});
