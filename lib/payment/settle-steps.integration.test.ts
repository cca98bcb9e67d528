import { afterAll, describe, expect, it, vi } from "vitest";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { startRpcProxy } from "@/testing/rpc-proxy";
import { distinctTitle } from "@/testing/titles";
import { workerDevnet } from "@/testing/worker-devnet";

// A settlement that finds no answer within X402_TIMEOUT_MS says what it was waiting for. Here the node holds
// the facilitator's send, and its word on whether the send arrived, until the paid call has been answered.
process.env.X402_TIMEOUT_MS = "5000";
const devnet = workerDevnet();
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});
let holding = false;
const proxy = await startRpcProxy(devnet.x402.rpcUrl, ({ method }) =>
  holding && (method.startsWith("eth_sendRawTransaction") || method === "eth_getTransactionByHash")
    ? { kind: "hold", until: held }
    : { kind: "pass" },
);
process.env.X402_RPC_URL = proxy.url;
afterAll(async () => {
  release();
  await proxy.close();
});

const PRICE = 10_000n;
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const payer = devnetX402Payer(devnet, 2, appFetch);

describe("an x402 settlement with no answer in time", () => {
  it("is a 503 payment-pending whose log names the step it waited on; the held send then settles once", async () => {
    const submit = () =>
      payer.fetch(
        `${APP}/api/namespace/feedback`,
        postJson({
          namespace: uniqueName("steps"),
          type: "bug",
          title: distinctTitle("Held send"),
          description: "The node holds the settlement's send.",
        }),
      );
    // One paid call first, so the signing key's lease and nonce are in hand as in a running service.
    expect((await submit()).status).toBe(200);
    const before = await chain.balanceOf(payer.address);

    const logged = vi.spyOn(console, "error");
    holding = true;
    const res = await submit();
    const answer = await res.json();
    holding = false;
    release();
    expect(res.status, JSON.stringify(answer)).toBe(503);
    expect(answer).toMatchObject({ type: "/problems/payment-pending" });
    const lines = logged.mock.calls.map((args) => args.join(" "));
    logged.mockRestore();
    const timedOut = lines.find((line) => line.includes("x402 settle did not answer within 5000 ms"));
    expect(timedOut, lines.join("\n")).toMatch(
      /waiting \d+\.\d s on the (send of nonce \d+ \(0x[0-9a-f]{64}\)|node's word on whether it holds 0x[0-9a-f]{64} \(its send unanswered after 3000 ms\))$/,
    );

    // Released, the held send reaches the chain: the price moves once, never twice.
    await expect.poll(() => chain.balanceOf(payer.address), { timeout: 20_000 }).toBe(before - PRICE);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await chain.balanceOf(payer.address)).toBe(before - PRICE);
  });
});
