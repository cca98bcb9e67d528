import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { createPublicClient, createWalletClient, type Hash, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getTransaction, sendTransaction, waitForTransactionReceipt } from "viem/actions";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { extraFacilitators } from "@/scripts/devnet/accounts";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { crash, otherInstanceHolding } from "@/testing/other-instance";
import { workerDevnet } from "@/testing/worker-devnet";
import { assertLeaseHeld, holdLease, leaseOneOf } from "./signer-lease";
import { SettlementUnavailable } from "./types";

// Keys with sequential nonces sign in one process at a time: the one holding the key's advisory lock.
const devnet = workerDevnet();
const facilitatorKeys = [devnet.x402.facilitatorPrivateKey, ...extraFacilitators.map((a) => a.privateKey)];
const facilitatorAddresses = facilitatorKeys.map((k) => privateKeyToAccount(k).address.toLowerCase());
const payer = devnetX402Payer(devnet, 2, appFetch);
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const url = `${APP}/api/namespace/feedback`;
const body = () => ({
  namespace: uniqueName("lease"),
  type: "bug",
  title: "Keys and crashes",
  description: "Who may sign.",
});

/** A signed payment for `input`, and a way to send it. */
async function payment(input = body()) {
  const asked = await appFetch(url, postJson(input));
  const signature = await payer.sign(asked.headers.get("payment-required")!);
  return { signature, send: () => appFetch(url, postJson(input, { "payment-signature": signature })) };
}

/** The server ends this process's lock session, as when its connection dies: every lock it held goes. */
async function killOwnLockSession() {
  const db = await getDb();
  const ended = await db.execute(
    sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'signer-locks' and datname = current_database() and pid <> pg_backend_pid()`,
  );
  // Until its client has seen the close, the session may still look open here: that is what alive() asks.
  await sleep(200);
  return (ended as unknown as unknown[]).length;
}

describe("signing-key locks", () => {
  it("gives a free key to this process and keeps it there", async () => {
    const address = `0x${randomBytes(20).toString("hex")}`;
    expect(await holdLease(address)).toBe("taken");
    expect(await holdLease(address)).toBe("kept");
    await assertLeaseHeld(address);
    expect(await leaseOneOf([`0x${randomBytes(20).toString("hex")}`, address])).toEqual({
      address,
      taken: false,
    });
    // A key this process never took is not one it may sign with.
    await expect(assertLeaseHeld(`0x${randomBytes(20).toString("hex")}`)).rejects.toBeInstanceOf(
      SettlementUnavailable,
    );
  });
});

// Instances are processes sharing PostgreSQL; the embedded database belongs to one process.
describe.skipIf(!process.env.DATABASE_URL)("signing-key locks held by another process", () => {
  it("keep a key from a second live instance, and free it within 5 s of the holder's crash (kill -9)", async () => {
    const address = `0x${randomBytes(20).toString("hex")}`;
    const other = await otherInstanceHolding([address]);
    try {
      expect(other.got[address]).toBe("taken");
      expect(await holdLease(address)).toBeNull();
      await crash(other.process);
      const crashed = Date.now();
      let lease = await holdLease(address);
      while (!lease && Date.now() - crashed < 5_000) {
        await sleep(100);
        lease = await holdLease(address);
      }
      expect(lease).toBe("taken");
    } finally {
      await crash(other.process);
    }
  });

  it("refuse to settle while another instance holds every key (503, nothing sent), and settle within 5 s of its crash", async () => {
    await killOwnLockSession();
    const other = await otherInstanceHolding(facilitatorAddresses);
    try {
      expect(Object.values(other.got)).toEqual(facilitatorAddresses.map(() => "taken"));
      const { signature, send } = await payment();
      const before = await chain.balanceOf(payer.address);
      const refused = await send();
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ type: "/problems/payment-unavailable" });
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await chain.balanceOf(payer.address)).toBe(before);
      const nonce = JSON.parse(Buffer.from(signature, "base64").toString()).payload.authorization.nonce;
      const rows = await (await getDb()).select().from(payments).where(eq(payments.payer, payer.address));
      expect(rows.filter((r) => r.paymentKey.endsWith(nonce))).toEqual([]);

      await crash(other.process);
      const crashed = Date.now();
      const paid = await send();
      expect(paid.status, await paid.clone().text()).toBe(200);
      expect(Date.now() - crashed).toBeLessThan(5_000);
      expect(await chain.balanceOf(payer.address)).toBe(before - 10_000n);
    } finally {
      await crash(other.process);
    }
  });

  it("never sign with a key whose lock died, and read its nonces again when they take it back", async () => {
    const first = await (await payment()).send();
    expect(first.status).toBe(200);
    const tx = JSON.parse(Buffer.from(first.headers.get("payment-response")!, "base64").toString());
    const reader = createPublicClient({ transport: http(devnet.x402.rpcUrl) });
    const key = (await getTransaction(reader, { hash: tx.transaction as Hash })).from.toLowerCase();
    expect(await holdLease(key)).toBe("kept");

    expect(await killOwnLockSession()).toBeGreaterThan(0);
    await expect(assertLeaseHeld(key)).rejects.toBeInstanceOf(SettlementUnavailable);
    const other = await otherInstanceHolding(facilitatorAddresses);
    try {
      expect(other.got[key]).toBe("taken");
      // The other instance signs with the key: its nonce on chain moves past what this process counted.
      const signer = createWalletClient({
        account: privateKeyToAccount(facilitatorKeys[facilitatorAddresses.indexOf(key)]!),
        transport: http(devnet.x402.rpcUrl),
      });
      const hash = await sendTransaction(signer, { to: signer.account.address, value: 0n, chain: null });
      await waitForTransactionReceipt(signer, { hash });

      const { send } = await payment();
      const before = await chain.balanceOf(payer.address);
      expect((await send()).status).toBe(503);
      expect(await chain.balanceOf(payer.address)).toBe(before);

      await crash(other.process);
      const paid = await send();
      expect(paid.status, await paid.clone().text()).toBe(200);
      expect(await chain.balanceOf(payer.address)).toBe(before - 10_000n);
    } finally {
      await crash(other.process);
    }
  });
});
