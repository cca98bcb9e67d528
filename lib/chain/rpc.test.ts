import { createPublicClient } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rpcTransport } from "./rpc";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const chainIdAnswer = () =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id: 0, result: "0x7a69" }), {
    headers: { "content-type": "application/json" },
  });

describe("chain RPC transport", () => {
  it("goes around Next.js's instrumented fetch to the runtime's own", async () => {
    const original = vi.fn(async () => chainIdAnswer());
    const wrapper = Object.assign(
      vi.fn(async () => chainIdAnswer()),
      { _nextOriginalFetch: original },
    );
    globalThis.fetch = wrapper as unknown as typeof fetch;
    const client = createPublicClient({ transport: rpcTransport("http://127.0.0.1:8545") });
    expect(await client.getChainId()).toBe(31337);
    expect(original).toHaveBeenCalledTimes(1);
    expect(wrapper).not.toHaveBeenCalled();
  });

  it("uses the global fetch when nothing wraps it", async () => {
    const plain = vi.fn(async () => chainIdAnswer());
    globalThis.fetch = plain as unknown as typeof fetch;
    const client = createPublicClient({ transport: rpcTransport("http://127.0.0.1:8545") });
    expect(await client.getChainId()).toBe(31337);
    expect(plain).toHaveBeenCalledTimes(1);
  });
});
