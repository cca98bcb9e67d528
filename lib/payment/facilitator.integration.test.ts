import { decodePaymentResponseHeader } from "@x402/core/http";
import { createPublicClient, type Hash, type Hex, http, parseTransaction } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { type FaultPolicy, startRpcProxy } from "@/testing/rpc-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// The in-process facilitator reaches the x402 chain through a proxy that counts its calls by method
// and can refuse some of them.
const devnet = workerDevnet();
const calls = new Map<string, number>();
let faults: FaultPolicy = () => ({ kind: "pass" });
const proxy = await startRpcProxy(devnet.x402.rpcUrl, (call) => {
  calls.set(call.method, (calls.get(call.method) ?? 0) + 1);
  return faults(call);
});
process.env.X402_RPC_URL = proxy.url;
afterAll(() => proxy.close());

const PRICE = 10_000n;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const node = createPublicClient({ transport: http(devnet.x402.rpcUrl) });
const payer = devnetX402Payer(devnet, 7, appFetch);
const otherPayer = devnetX402Payer(devnet, 0, appFetch);
const isSend = (method: string) => method.startsWith("eth_sendRawTransaction");

const pay = (who = payer) =>
  who.fetch(
    `${APP}/api/namespace/feedback`,
    postJson({
      namespace: uniqueName("rpc"),
      type: "bug",
      title: distinctTitle("Settled"),
      description: "One settled payment.",
    }),
  );

/** Pays and returns the settlement's transaction, failing the test unless the call was paid. */
async function paid(who = payer) {
  const res = await pay(who);
  expect(res.status, await res.clone().text()).toBe(200);
  return decodePaymentResponseHeader(res.headers.get("payment-response")!).transaction as Hash;
}

/** The facilitator's RPC calls by method while `run` goes. */
async function counted(run: () => Promise<unknown>) {
  calls.clear();
  await run();
  return Object.fromEntries([...calls].sort(([a], [b]) => a.localeCompare(b)));
}

/** Transactions the node holds but has not mined: one waiting behind a nonce gap shows here. */
const unmined = async () => {
  const status = await node.request({ method: "txpool_status" as never });
  return status as { pending: Hex; queued: Hex };
};

describe("the in-process facilitator", () => {
  it("settles a payment with the payer's code, one fill and one synchronous send", async () => {
    const first = await counted(() => paid());
    const again = await counted(() => paid());
    const another = await counted(() => paid(otherPayer));
    console.log("RPC calls per settled payment", { first, again, another });
    for (const counts of [again, another]) {
      expect(counts).toMatchObject({ eth_fillTransaction: 1, eth_sendRawTransactionSync: 1 });
      expect(counts).not.toHaveProperty("eth_getTransactionCount");
      expect(counts).not.toHaveProperty("eth_getTransactionReceipt");
      expect(counts).not.toHaveProperty("eth_sendRawTransaction");
      expect(counts.eth_getCode ?? 0).toBeLessThanOrEqual(1);
    }
    // A payer seen a moment ago is not asked for its code again; a new one is, once for verify and settle.
    expect(another.eth_getCode).toBe(1);
  });

  it("refills the nonce of a send the node refused: the payments sent beside it and after it settle", async () => {
    const facilitator = (await node.getTransaction({ hash: await paid() })).from;
    const gap = await node.getTransactionCount({ address: facilitator });
    let refused = 0;
    // The send holding the lowest nonce is refused, so every send beside it waits behind the gap.
    faults = ({ method, params }) => {
      if (!isSend(method) || refused || parseTransaction(params[0] as Hex).nonce !== gap)
        return { kind: "pass" };
      refused++;
      return { kind: "rpc-error", code: -32000, message: "injected send failure" };
    };
    const before = await chain.balanceOf(payer.address);
    const started = Date.now();
    const statuses = (await Promise.all([pay(), pay(), pay()])).map((res) => res.status);
    expect(refused).toBe(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    // A gap nobody filled would hold the other two until the settlement timeout (20 s).
    expect(Date.now() - started).toBeLessThan(15_000);
    faults = () => ({ kind: "pass" });
    await paid();
    await paid();
    expect(await chain.balanceOf(payer.address)).toBe(before - 4n * PRICE);
    expect(await unmined()).toEqual({ pending: "0x0", queued: "0x0" });
  });

  it("settles a payment whose send reached the chain but whose answer was lost, by its hash", async () => {
    faults = ({ method }) => (isSend(method) ? { kind: "cut-after-forward" } : { kind: "pass" });
    const before = await chain.balanceOf(payer.address);
    const tx = await paid();
    faults = () => ({ kind: "pass" });
    expect(await chain.transfersIn(tx)).toMatchObject({ status: "success" });
    expect(await chain.balanceOf(payer.address)).toBe(before - PRICE);
    await paid();
  });

  // Last: a node without the synchronous send is remembered for the rest of the process.
  it("settles by sending and polling when the node does not know eth_sendRawTransactionSync", async () => {
    faults = ({ method }) =>
      method === "eth_sendRawTransactionSync"
        ? { kind: "rpc-error", code: -32601, message: "Method not found" }
        : { kind: "pass" };
    const first = await counted(() => paid());
    const again = await counted(() => paid());
    console.log("RPC calls per settled payment without the synchronous send", { first, again });
    expect(first).toMatchObject({ eth_sendRawTransactionSync: 1, eth_sendRawTransaction: 1 });
    expect(again).toMatchObject({ eth_sendRawTransaction: 1 });
    expect(again.eth_getTransactionReceipt).toBeGreaterThanOrEqual(1);
    expect(again).not.toHaveProperty("eth_sendRawTransactionSync");
    expect(again).not.toHaveProperty("eth_getTransactionCount");
  });
});
