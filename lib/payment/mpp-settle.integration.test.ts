import { eq, sql } from "drizzle-orm";
import { Credential, Receipt } from "mppx";
import { erc20Abi } from "viem";
import { readContract } from "viem/actions";
import { Actions } from "viem/tempo";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { createMppFetch } from "@/scripts/clients/mpp-payer";
import { tempoClient } from "@/scripts/devnet/tempo";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { type FaultPolicy, PASS, startRpcProxy } from "@/testing/rpc-proxy";
import { workerDevnet } from "@/testing/worker-devnet";

// The service reaches the Tempo chain only through a proxy that counts its calls by method and can
// cut, hold or refuse them; the payer signs against the chain directly.
const devnet = workerDevnet();
const tempo = devnet.tempo;
let calls: Record<string, number> = {};
let policy: FaultPolicy = PASS;
const proxy = await startRpcProxy(tempo.rpcUrl, (call) => {
  calls[call.method] = (calls[call.method] ?? 0) + 1;
  return policy(call);
});
process.env.TEMPO_RPC_URL = proxy.url;
afterAll(() => proxy.close());
beforeEach(() => {
  policy = PASS;
});

const wallet = devnet.accounts[6]!;
const payer = createMppFetch(tempo, wallet.privateKey as `0x${string}`, appFetch);
const chain = tempoClient(tempo);
const url = `${APP}/api/namespace/feedback`;
const PRICE = 10_000n;
const SIMULATIONS = ["eth_call", "eth_estimateGas", "eth_simulateV1"];
const SYNC_SEND = "eth_sendRawTransactionSync";

const item = () => ({
  namespace: uniqueName(),
  type: "feature",
  title: `Settle once ${uniqueName()}`,
  description: "An agent that only speaks MPP.",
});

function usdcE(owner: `0x${string}`) {
  return readContract(chain, {
    address: tempo.currency,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner],
  });
}

/** A signed credential for a fresh 402, and the RPC calls its paid request made (counted from zero). */
async function pay(body = item()) {
  const credential = await payer.createCredential(await appFetch(url, postJson(body)));
  calls = {};
  const res = await appFetch(url, postJson(body, { authorization: credential }));
  const made = calls;
  return { res, made, body, credential, key: `mpp:${Credential.deserialize(credential).challenge.id}` };
}

async function rowOf(paymentKey: string) {
  const [row] = await (await getDb()).select().from(payments).where(eq(payments.paymentKey, paymentKey));
  return row;
}

const count = (made: Record<string, number>, methods: string[]) =>
  methods.reduce((n, m) => n + (made[m] ?? 0), 0);

describe("an MPP payment is verified once", () => {
  it("simulates the payer's transaction once, and sends it once for its receipt", async () => {
    const before = await usdcE(wallet.address);
    const { res, made } = await pay();
    expect(res.status, await res.clone().text()).toBe(200);
    // Before: four eth_call (our verification, then mppx's validate, its broadcast's validate and its
    // pre-broadcast simulation) and one send. The receipt comes with the send: no polling.
    expect(count(made, SIMULATIONS)).toBe(1);
    expect(made).toEqual({ eth_call: 1, [SYNC_SEND]: 1 });
    expect(await usdcE(wallet.address)).toBe(before - PRICE);
  });

  it("settles once from the chain's receipt when the send's answer is lost, and answers a resend the same", async () => {
    policy = ({ method }) => (method === SYNC_SEND ? { kind: "cut-after-forward" } : { kind: "pass" });
    const before = await usdcE(wallet.address);
    const { res, body, credential, key } = await pay();
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await usdcE(wallet.address)).toBe(before - PRICE);
    expect((await rowOf(key))!.status).toBe("fulfilled");

    policy = PASS;
    const again = await appFetch(url, postJson(body, { authorization: credential }));
    expect(again.status).toBe(200);
    expect(Receipt.fromResponse(again).reference).toBe(Receipt.fromResponse(res).reference);
    expect(await usdcE(wallet.address)).toBe(before - PRICE);
  });

  it("keeps the claim open when the send never reached the chain, and settles the same bytes once taken over", async () => {
    policy = ({ method }) => (method === SYNC_SEND ? { kind: "cut" } : { kind: "pass" });
    const before = await usdcE(wallet.address);
    const { res, body, credential, key } = await pay();
    expect(res.status).toBe(503);
    const problem = await res.json();
    expect(problem.type).toBe("/problems/payment-pending");
    const row = (await rowOf(key))!;
    expect(problem.paymentId).toBe(row.id);
    expect(row.status).toBe("claimed");
    expect(row.resultId).toBeNull();
    expect(await usdcE(wallet.address)).toBe(before);

    // The request that claimed it died long ago (as far as the ledger can tell): the same request with
    // the same credential takes the claim over and sends the very bytes it verified.
    policy = PASS;
    await (await getDb())
      .update(payments)
      .set({ updatedAt: sql`now() - interval '10 minutes'` })
      .where(eq(payments.id, row.id));
    const again = await appFetch(url, postJson(body, { authorization: credential }));
    expect(again.status, await again.clone().text()).toBe(200);
    expect((await rowOf(key))!.status).toBe("fulfilled");
    expect(await usdcE(wallet.address)).toBe(before - PRICE);
  });

  it("fails the claim, stores nothing and charges nothing when the transaction cannot pay once sent", async () => {
    const parking = devnet.accounts[5]!;
    const owner = tempoClient(tempo, wallet.privateKey as `0x${string}`);
    const all = await usdcE(wallet.address);
    // The simulation passed; while the send is held, the payer empties its wallet.
    let drained: Promise<unknown> | undefined;
    policy = ({ method }) => {
      if (method !== SYNC_SEND) return { kind: "pass" };
      drained ??= Actions.token.transferSync(owner, {
        token: tempo.currency,
        to: parking.address,
        amount: all,
      });
      return { kind: "hold", until: drained };
    };
    try {
      const { res, key } = await pay();
      expect(res.status, await res.clone().text()).toBe(402);
      expect(res.headers.get("retry-after")).toBeNull();
      expect((await res.json()).detail).toMatch(/not charged|Nothing was charged/);
      const row = await rowOf(key);
      expect(row?.status ?? "released").not.toBe("claimed");
      expect(row?.resultId ?? null).toBeNull();
      expect(await usdcE(wallet.address)).toBe(0n);
    } finally {
      policy = PASS;
      await drained;
      const back = tempoClient(tempo, parking.privateKey as `0x${string}`);
      await Actions.token.transferSync(back, { token: tempo.currency, to: wallet.address, amount: all });
    }
  });

  it("frees the claim when the node refuses the send and holds nothing: the same credential pays later", async () => {
    policy = ({ method }) =>
      method === SYNC_SEND
        ? { kind: "rpc-error", code: -32003, message: "transaction rejected: fee cap too low" }
        : { kind: "pass" };
    const before = await usdcE(wallet.address);
    const { res, body, credential, key } = await pay();
    expect(res.status, await res.clone().text()).toBe(402);
    expect((await res.json()).detail).toMatch(/Nothing was charged/);
    expect(await rowOf(key)).toBeUndefined();
    expect(await usdcE(wallet.address)).toBe(before);

    policy = PASS;
    const again = await appFetch(url, postJson(body, { authorization: credential }));
    expect(again.status, await again.clone().text()).toBe(200);
    expect(await usdcE(wallet.address)).toBe(before - PRICE);
  });

  // Last: the process learns that the node lacks the method and stops asking for it.
  it("sends and polls for the receipt on a node without eth_sendRawTransactionSync", async () => {
    policy = ({ method }) =>
      method === SYNC_SEND
        ? { kind: "rpc-error", code: -32601, message: `the method ${SYNC_SEND} does not exist` }
        : { kind: "pass" };
    const before = await usdcE(wallet.address);
    const first = await pay();
    expect(first.res.status, await first.res.clone().text()).toBe(200);
    expect(count(first.made, SIMULATIONS)).toBe(1);
    expect(first.made.eth_sendRawTransaction).toBe(1);
    expect(first.made.eth_getTransactionReceipt).toBeGreaterThanOrEqual(1);

    const second = await pay();
    expect(second.res.status).toBe(200);
    expect(second.made[SYNC_SEND]).toBeUndefined();
    expect(count(second.made, SIMULATIONS)).toBe(1);
    expect(await usdcE(wallet.address)).toBe(before - 2n * PRICE);
  });

  it("offers no MPP while the Tempo RPC cannot be reached, and offers it again once it answers", async () => {
    // The service asks whether Tempo answers at most every 5 s: within a few of those, the 402 follows it.
    const ask = () => appFetch(url, postJson(item()));
    const offered = async () => (await ask()).headers.get("www-authenticate");
    policy = () => ({ kind: "cut" });
    await expect.poll(offered, { timeout: 30_000, interval: 1_000 }).toBeNull();
    const asked = await ask();
    expect(asked.status).toBe(402);
    expect(asked.headers.get("payment-required")).toBeTruthy();
    expect((await asked.json()).protocols).toEqual(["x402"]);
    policy = PASS;
    await expect.poll(offered, { timeout: 30_000, interval: 1_000 }).toMatch(/^Payment /);
    expect((await (await ask()).json()).protocols).toEqual(["x402", "mpp"]);
  });
});
