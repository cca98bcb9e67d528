import { eq, inArray } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments, signerLeases } from "@/lib/db/schema";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { extraFacilitators } from "@/scripts/devnet/accounts";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { holdLease, leaseOneOf } from "./signer-lease";

// Keys with sequential nonces are leased to one instance at a time, through the shared database.
const devnet = inject("devnet");
const facilitatorKeys = [devnet.x402.facilitatorPrivateKey, ...extraFacilitators.map((a) => a.privateKey)];
const facilitatorAddresses = [
  "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  ...extraFacilitators.map((a) => a.address),
].map((a) => a.toLowerCase());

const otherInstance = async (addresses: string[], secondsLeft: number) => {
  const db = await getDb();
  for (const address of addresses) {
    await db
      .insert(signerLeases)
      .values({ address, holder: "another-instance", expiresAt: new Date(Date.now() + secondsLeft * 1000) })
      .onConflictDoUpdate({
        target: signerLeases.address,
        set: { holder: "another-instance", expiresAt: new Date(Date.now() + secondsLeft * 1000) },
      });
  }
};

describe("signer leases", () => {
  it("gives a key to one holder at a time, takes a lapsed one over, and keeps its own", async () => {
    const address = `0x${"ab".repeat(20)}`;
    await otherInstance([address], 30);
    expect(await holdLease(address)).toBeNull();
    await otherInstance([address], -1);
    expect(await holdLease(address)).toBe("taken");
    expect(await holdLease(address)).toBe("kept");
    const [row] = await (await getDb()).select().from(signerLeases).where(eq(signerLeases.address, address));
    expect(row!.holder).not.toBe("another-instance");
    expect(await leaseOneOf([`0x${"cd".repeat(20)}`, address])).toEqual({ address, taken: false });
  });

  it("refuses to settle while every facilitator key is held elsewhere: 503, nothing sent, the credential unspent", async () => {
    expect(facilitatorKeys).toHaveLength(facilitatorAddresses.length);
    const db = await getDb();
    const saved = await db
      .select()
      .from(signerLeases)
      .where(inArray(signerLeases.address, facilitatorAddresses));
    await otherInstance(facilitatorAddresses, 120);
    // This process is now a fresh instance that holds nothing: forget what earlier tests leased.
    (globalThis as unknown as { __signerLeases: { held: Map<string, number> } }).__signerLeases.held.clear();
    const payer = devnetX402Payer(devnet, 2, appFetch);
    const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
    const body = {
      namespace: uniqueName("lease"),
      type: "bug",
      title: "Busy keys",
      description: "No key is free.",
    };
    const asked = await appFetch(`${APP}/api/namespace/feedback`, postJson(body));
    const signature = await payer.sign(asked.headers.get("payment-required")!);
    const before = await chain.balanceOf(payer.address);
    try {
      const res = await appFetch(
        `${APP}/api/namespace/feedback`,
        postJson(body, { "payment-signature": signature }),
      );
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ type: "/problems/payment-unavailable" });
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await chain.balanceOf(payer.address)).toBe(before);
      const nonce = JSON.parse(Buffer.from(signature, "base64").toString()).payload.authorization.nonce;
      const rows = await db.select().from(payments).where(eq(payments.payer, payer.address));
      expect(rows.filter((r) => r.paymentKey.endsWith(nonce))).toEqual([]);
    } finally {
      await db.delete(signerLeases).where(inArray(signerLeases.address, facilitatorAddresses));
      if (saved.length) await db.insert(signerLeases).values(saved);
    }
    // Keys free again: the same credential now pays, once.
    const res = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson(body, { "payment-signature": signature }),
    );
    expect(res.status).toBe(200);
    expect(await chain.balanceOf(payer.address)).toBe(before - 10_000n);
  });
});
