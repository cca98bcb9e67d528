import {
  type Hex,
  hashMessage,
  parseSignature,
  recoverMessageAddress,
  serializeErc6492Signature,
  serializeSignature,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { recoversTo } from "@/lib/chain/ecdsa";
import { type FaultPolicy, type RpcProxy, startRpcProxy } from "@/testing/rpc-proxy";
import { STUB_WALLET, startStubChain } from "@/testing/stub-chain";
import { verifyOnChain } from "./wallet-signature";

vi.hoisted(() => {
  process.env.X402_NETWORK = "eip155:31337";
});

const NETWORK = "eip155:31337";
const alice = privateKeyToAccount(generatePrivateKey());
let calls: string[] = [];
let proxy: RpcProxy;
let stopChain: () => void;
const record: FaultPolicy = (call) => {
  calls.push(call.method);
  return { kind: "pass" };
};

beforeAll(async () => {
  const chain = await startStubChain();
  stopChain = chain.stop;
  // Every RPC the checks make passes through here and is written down by method.
  proxy = await startRpcProxy(chain.rpcUrl, record);
  process.env.X402_RPC_URL = proxy.url;
});
afterAll(async () => {
  await proxy.close();
  stopChain();
});
beforeEach(() => {
  calls = [];
});

describe("a plain wallet's signature", () => {
  it("is recovered here, with no RPC, exactly where viem's recovery names the address", async () => {
    const message = "Sign in to the feedback service.";
    const hash = hashMessage(message);
    const signature = await alice.signMessage({ message });
    const { r, s, yParity } = parseSignature(signature);
    expect(recoversTo(alice.address, hash, signature)).toBe(true);
    expect(recoversTo(alice.address.toLowerCase(), hash, signature)).toBe(true);
    expect(recoversTo(alice.address, hash, serializeSignature({ r, s, yParity }))).toBe(true);
    expect(recoversTo(alice.address, hash, `${signature.slice(0, 130)}0${yParity}`)).toBe(true);
    const tampered: string[] = [
      `${signature.slice(0, 130)}${yParity ? "1b" : "1c"}`,
      `${signature.slice(0, 20)}${signature[20] === "a" ? "b" : "a"}${signature.slice(21)}`,
      `${signature.slice(0, 130)}1d`,
      signature.slice(0, 130),
      `${signature}00`,
      `0x${"00".repeat(65)}`,
      `0x${"ff".repeat(64)}1b`,
      "not hex",
    ];
    for (const sig of tampered) {
      const viemSays = await recoverMessageAddress({ message, signature: sig as Hex }).catch(() => null);
      expect(recoversTo(alice.address, hash, sig)).toBe(viemSays === alice.address);
      expect(recoversTo(alice.address, hash, sig)).toBe(false);
    }
    expect(recoversTo(privateKeyToAccount(generatePrivateKey()).address, hash, signature)).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe("a contract wallet's signature", () => {
  const hash = hashMessage("Sign in to the feedback service.");

  it("is checked by EIP-1271 on chain, its code looked up once per while", async () => {
    expect(await verifyOnChain(NETWORK, { address: STUB_WALLET, hash, signature: hash })).toBe(true);
    expect(calls).toEqual(["eth_getCode", "eth_call"]);
    calls = [];
    expect(await verifyOnChain(NETWORK, { address: STUB_WALLET, hash, signature: hash })).toBe(true);
    const forged = hashMessage("something else");
    expect(await verifyOnChain(NETWORK, { address: STUB_WALLET, hash, signature: forged })).toBe(false);
    expect(calls).toEqual(["eth_call", "eth_call"]);
  });

  it("wrapped per EIP-6492 goes straight to the chain's validator", async () => {
    const wrapped = serializeErc6492Signature({
      address: "0x000000000000000000000000000000000000fac7",
      data: "0x",
      signature: hash,
    });
    expect(await verifyOnChain(NETWORK, { address: STUB_WALLET, hash, signature: wrapped })).toBe(true);
    expect(calls).toEqual(["eth_call"]);
  });

  it("is refused for an address without code after one eth_getCode, remembered for a while", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const signature = await alice.signMessage({ message: "Sign in to the feedback service." });
    expect(await verifyOnChain(NETWORK, { address: stranger, hash, signature })).toBe(false);
    expect(await verifyOnChain(NETWORK, { address: stranger, hash, signature })).toBe(false);
    expect(calls).toEqual(["eth_getCode"]);
  });

  it("cannot be checked while the chain does not answer, and that is an error, not a no", async () => {
    proxy.setPolicy(() => ({ kind: "http-500" }));
    const unknown = privateKeyToAccount(generatePrivateKey()).address;
    await expect(verifyOnChain(NETWORK, { address: unknown, hash, signature: hash })).rejects.toThrow();
    proxy.setPolicy(record);
  });
});
