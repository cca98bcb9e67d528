import { decodePaymentRequiredHeader } from "@x402/core/http";
import {
  createSIWxClientExtension,
  createSIWxMessage,
  type EVMSigner,
  encodeSIWxHeader,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
  type SIWxExtensionInfo,
  signEVMMessage,
} from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { getAddress, hashMessage, keccak256, serializeErc6492Signature, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { handle, json } from "@/lib/http/handler";
import { STUB_WALLET, startStubChain, stubWalletSigner } from "@/testing/stub-chain";

const state = vi.hoisted(() => {
  // Pinned where assertions depend on it; the rest is kept if a shared setup already provided it.
  Object.assign(process.env, {
    PUBLIC_ORIGIN: "http://localhost:3000",
    X402_NETWORK: "eip155:31337",
    TEMPO_CHAIN_ID: "4217",
    SIWX_TTL_SECONDS: "300",
  });
  process.env.APP_SECRET ??= "test-secret-test-secret-test-secret-0000";
  process.env.X402_ASSET ??= "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  process.env.X402_PAY_TO ??= "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
  if (!process.env.X402_FACILITATOR_PRIVATE_KEY) process.env.X402_FACILITATOR_URL ??= "http://127.0.0.1:9/";
  return { db: undefined as Promise<Db> | undefined };
});

vi.mock("@/lib/db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/db/client")>()),
  getDb: () => state.db,
  getAsyncCommitDb: () => state.db,
}));

const { openDb } = await import("@/lib/db/client");
const { issueNonce } = await import("./nonces");
const { SIWX_HEADER, optionalSignIn, requireSignIn, verifySignIn } = await import("./siwx");

const ORIGIN = "http://localhost:3000";
const RESOURCE = `${ORIGIN}/api/namespace/list?cursor=abc`;
const alice = privateKeyToAccount(generatePrivateKey());
const bob = privateKeyToAccount(generatePrivateKey());

const route = handle(async (request) => json(await requireSignIn(request)));
const sentProofs: string[] = [];
const appFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const proof = request.headers.get(SIWX_HEADER);
  if (proof) sentProofs.push(proof);
  return route(request);
};

let stopChains: (() => void)[] = [];
let closeDb: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // Tempo's chain has no contract at the stub wallet's address: a proof is checked where it says.
  const [chain, tempo] = await Promise.all([
    startStubChain(),
    startStubChain({ chainId: 4217, wallet: false }),
  ]);
  stopChains = [chain.stop, tempo.stop];
  process.env.X402_RPC_URL = chain.rpcUrl;
  process.env.TEMPO_RPC_URL = tempo.rpcUrl;
  const handle = await openDb({ dataDir: "memory://" });
  closeDb = handle.close;
  state.db = Promise.resolve(handle.db);
});
afterAll(async () => {
  for (const stop of stopChains) stop();
  await closeDb?.();
});
afterEach(() => vi.useRealTimers());

async function challenge(url = RESOURCE): Promise<SIWxExtension> {
  const response = await route(new Request(url));
  const required = decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") ?? "");
  return required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
}

/** A client-built proof, as the library's client would send it, for a possibly altered challenge. */
async function proof(info: SIWxExtensionInfo, signer: EVMSigner = alice, chainId = "eip155:31337") {
  const complete = { ...info, chainId, type: "eip191" as const };
  const address = signer.address!;
  const signature = await signEVMMessage(createSIWxMessage(complete, address), signer);
  return encodeSIWxHeader({ ...complete, address, signature });
}

function refusal(reason: RegExp) {
  return { code: "sign-in-invalid", status: 401, detail: expect.stringMatching(reason) };
}

describe("authentication required", () => {
  it("answers a request without proof with a 402 carrying a fresh challenge bound to PUBLIC_ORIGIN", async () => {
    const response = await route(new Request("http://10.0.0.7:8080/api/namespace/list?cursor=abc"));
    expect(response.status).toBe(402);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const required = decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") ?? "");
    expect(required).toMatchObject({
      x402Version: 2,
      error: "Authentication Required",
      resource: { url: RESOURCE, description: "Authentication Required", mimeType: "application/json" },
      accepts: [],
    });
    const declaration = required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
    // The x402 network first (clients sign for the first chain they can), then Tempo for MPP payers.
    expect(declaration.supportedChains).toEqual([
      { chainId: "eip155:31337", type: "eip191" },
      { chainId: "eip155:4217", type: "eip191" },
    ]);
    expect(declaration.info).toMatchObject({ domain: "localhost:3000", uri: RESOURCE, version: "1" });
    expect(declaration.info.nonce).toMatch(/^[0-9a-f]{32}$/);
    const ttl = Date.parse(declaration.info.expirationTime!) - Date.parse(declaration.info.issuedAt);
    expect(ttl).toBe(300_000);
    const body = await response.json();
    expect(body).toMatchObject({ type: "/problems/authentication-required", status: 402 });
    expect(body.extensions).toEqual(required.extensions);
    expect((await challenge()).info.nonce).not.toBe(declaration.info.nonce);
  });
});

describe("sign in", () => {
  it("signs in through the x402 client extension, then refuses the captured proof's replay", async () => {
    const signedFetch = wrapFetchWithPayment(
      appFetch,
      new x402Client().registerExtension(createSIWxClientExtension({ signers: [alice] })),
    );
    const response = await signedFetch(RESOURCE);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      address: alice.address,
      chainId: "eip155:31337",
      did: `did:pkh:eip155:31337:${alice.address}`,
      contractOn: null,
    });
    const replay = await route(new Request(RESOURCE, { headers: { [SIWX_HEADER]: sentProofs.at(-1)! } }));
    expect(replay.status).toBe(401);
    expect((await replay.json()).detail).toMatch(/already used/);
  });

  it("accepts a proof once even when it arrives many times at once", async () => {
    const header = await proof((await challenge()).info);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => verifySignIn(header)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("refuses proofs for another domain or uri, without spending the nonce", async () => {
    const { info } = await challenge();
    const phished = { ...info, domain: "evil.example", uri: "https://evil.example/login" };
    await expect(verifySignIn(await proof(phished))).rejects.toMatchObject(refusal(/Domain mismatch/));
    for (const uri of ["https://evil.example/api", "https://localhost:3000/api"]) {
      await expect(verifySignIn(await proof({ ...info, uri }))).rejects.toMatchObject(
        refusal(/URI mismatch/),
      );
    }
    expect((await verifySignIn(await proof(info))).address).toBe(alice.address);
  });

  it("refuses an expired proof and a nonce past its server-side lifetime", async () => {
    const { info } = await challenge();
    const lapsed = { ...info, issuedAt: new Date(Date.now() - 60_000).toISOString() };
    lapsed.expirationTime = new Date(Date.now() - 1_000).toISOString();
    await expect(verifySignIn(await proof(lapsed))).rejects.toMatchObject(refusal(/expired/));

    const held = await proof(info);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 301_000);
    await expect(verifySignIn(held)).rejects.toMatchObject(refusal(/too old|expired/));
    vi.useRealTimers();

    const db = await state.db!;
    const dead = await issueNonce(db, 0);
    await expect(verifySignIn(await proof({ ...info, nonce: dead.nonce }))).rejects.toMatchObject(
      refusal(/nonce/),
    );
  });

  it("refuses a nonce the server never issued", async () => {
    const { info } = await challenge();
    const forged = { ...info, nonce: keccak256(toHex("made up")).slice(2, 34) };
    await expect(verifySignIn(await proof(forged))).rejects.toMatchObject(
      refusal(/not issued by this server/),
    );
  });

  it("refuses a tampered signature and another wallet's signature, then still accepts the real one", async () => {
    const { info } = await challenge();
    const genuine = await proof(info);
    const payload = parseSIWxHeader(genuine);
    const flipped =
      payload.signature.slice(0, 40) +
      (payload.signature[40] === "a" ? "b" : "a") +
      payload.signature.slice(41);
    const tampered = encodeSIWxHeader({ ...payload, signature: flipped });
    await expect(verifySignIn(tampered)).rejects.toMatchObject(refusal(/signature does not match/));
    const impostor = parseSIWxHeader(await proof(info, bob));
    const claimed = encodeSIWxHeader({ ...impostor, address: alice.address });
    await expect(verifySignIn(claimed)).rejects.toMatchObject(refusal(/signature does not match/));
    expect((await verifySignIn(genuine)).address).toBe(alice.address);
  });

  it("refuses garbage and proofs for another chain", async () => {
    await expect(verifySignIn("not base64 at all!")).rejects.toMatchObject(refusal(/base64/));
    const { info } = await challenge();
    await expect(verifySignIn(await proof(info, alice, "eip155:1"))).rejects.toMatchObject(
      refusal(/eip155:31337 or eip155:4217/),
    );
  });

  it("signs in a wallet on Tempo's chain id, where MPP payers pay, as the same wallet", async () => {
    const { info } = await challenge();
    expect(await verifySignIn(await proof(info, alice, "eip155:4217"))).toEqual({
      address: alice.address,
      chainId: "eip155:4217",
      did: `did:pkh:eip155:4217:${alice.address}`,
      contractOn: null,
    });
  });

  it("checks a contract wallet on the chain its proof names", async () => {
    const { info } = await challenge();
    // Deployed on the x402 chain only: its proof for Tempo cannot be vouched for by any contract there.
    await expect(verifySignIn(await proof(info, stubWalletSigner, "eip155:4217"))).rejects.toMatchObject(
      refusal(/signature does not match|could not be verified/),
    );
    // A contract wallet is an identity on the chain it proved on only.
    expect(await verifySignIn(await proof(info, stubWalletSigner))).toMatchObject({
      chainId: "eip155:31337",
      contractOn: "eip155:31337",
    });
  });

  it("verifies an EIP-1271 smart wallet on chain", async () => {
    const { info } = await challenge();
    const forged: EVMSigner = { ...stubWalletSigner, signMessage: async () => keccak256(toHex("wrong")) };
    await expect(verifySignIn(await proof(info, forged))).rejects.toMatchObject(
      refusal(/signature does not match/),
    );
    const identity = await verifySignIn(await proof(info, stubWalletSigner));
    expect(identity.did).toBe(`did:pkh:eip155:31337:${getAddress(STUB_WALLET)}`);
  });

  it("verifies an EIP-6492-wrapped smart wallet signature on chain", async () => {
    const { info } = await challenge();
    const wrapped: EVMSigner = {
      ...stubWalletSigner,
      signMessage: async ({ message }) =>
        serializeErc6492Signature({
          address: "0x000000000000000000000000000000000000fac7",
          data: "0x",
          signature: hashMessage(message),
        }),
    };
    expect((await verifySignIn(await proof(info, wrapped))).address).toBe(getAddress(STUB_WALLET));
  });

  it("makes sign-in optional when asked, but never ignores a bad proof", async () => {
    expect(await optionalSignIn(new Request(RESOURCE))).toBeNull();
    const header = await proof((await challenge()).info);
    expect(
      (await optionalSignIn(new Request(RESOURCE, { headers: { [SIWX_HEADER]: header } })))?.address,
    ).toBe(alice.address);
    const replay = optionalSignIn(new Request(RESOURCE, { headers: { [SIWX_HEADER]: header } }));
    await expect(replay).rejects.toMatchObject(refusal(/already used/));
  });
});
