import "server-only";
import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import {
  type Chain,
  type Client,
  concat,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hash,
  publicActions,
  type TransactionReceipt,
  type Transport,
} from "viem";
import { getCode } from "viem/actions";
import { cachingGetCode } from "@/lib/chain/code";
import { nativeSigningAccount } from "@/lib/chain/ecdsa";
import { createLocalNonceManager } from "@/lib/chain/nonces";
import { rpcTransport } from "@/lib/chain/rpc";
import { createSender, type Sent } from "@/lib/chain/sender";
import { enterStep } from "@/lib/chain/steps";
import { env } from "@/lib/env";
import { PlainWalletExactEvmScheme } from "./exact-evm-scheme";
import { remoteFacilitator } from "./remote-facilitator";
import { assertLeaseHeld, leaseOneOf } from "./signer-lease";
import { SettlementUnavailable } from "./types";

/** A viem chain for the configured x402 network, reached through the configured RPC only. */
export function x402Chain() {
  const e = env();
  const id = Number(e.X402_NETWORK.split(":")[1]);
  return defineChain({
    id,
    name: e.X402_NETWORK,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [e.X402_RPC_URL] } },
  });
}

let reader: Client<Transport, Chain> | undefined;

/** A read-only client for the x402 network, every call bounded by the configured timeout. */
export function x402Reader(): Client<Transport, Chain> {
  const e = env();
  reader ??= createPublicClient({
    chain: x402Chain(),
    transport: rpcTransport(e.X402_RPC_URL, { timeout: e.X402_TIMEOUT_MS }),
  });
  return reader;
}

// Receipts the in-process facilitator's sends brought back or it waited for, kept until the settlement
// that sent them reads them back: the payment is proven from the receipt without asking the chain again.
const receipts = new Map<string, TransactionReceipt>();
const MAX_KEPT_RECEIPTS = 1_000;

/** The receipt the in-process facilitator saw for a transaction it sent, once; undefined otherwise. */
export function settledReceipt(hash: Hash): TransactionReceipt | undefined {
  const receipt = receipts.get(hash.toLowerCase());
  receipts.delete(hash.toLowerCase());
  return receipt;
}

function keepReceipt(receipt: TransactionReceipt) {
  if (receipts.size >= MAX_KEPT_RECEIPTS) receipts.delete(receipts.keys().next().value as string);
  receipts.set(receipt.transactionHash.toLowerCase(), receipt);
}

/** A sent transaction's hash, its receipt (when the send brought one back) kept for the settlement. */
function sentHash(sent: Sent) {
  if (sent.receipt) keepReceipt(sent.receipt);
  return sent.hash;
}

/**
 * How long a settlement's send may go unanswered before the node is asked whether it holds it (and sent it
 * again when not): past Base's 2 s block, which answers a send that arrived, and far below X402_TIMEOUT_MS,
 * which every payment behind a lost send's nonce would otherwise wait out (lib/chain/sender.ts).
 */
const LOST_SEND_CHECK_MS = 3_000;

// Counts each key's nonces locally after one read of the chain (see lib/chain/nonces.ts).
const nonces = createLocalNonceManager();

let codes: ReturnType<typeof cachingGetCode> | undefined;

/**
 * getCode for every key's facilitator at once (verify runs on the first key, settle on the leased one).
 * The facilitator asks for the asset's code and the payer's on every verify and settle: the asset's is
 * kept, the payer's for a few seconds (see cachingGetCode).
 */
function contractCode() {
  codes ??= cachingGetCode((args) => getCode(x402Reader(), args), [env().X402_ASSET]);
  return codes;
}

/**
 * The x402 signer of one of our keys: it sends with the key's local nonces, signed natively, and reads
 * the chain through the configured RPC.
 */
export function facilitatorSigner(privateKey: `0x${string}`, options: { leased?: boolean } = {}) {
  const e = env();
  const account = nativeSigningAccount(privateKey);
  const client = createWalletClient({
    account,
    chain: x402Chain(),
    // Receipts are polled (after the early looks); viem's 4 s default would add seconds to every paid call.
    pollingInterval: 250,
    transport: rpcTransport(e.X402_RPC_URL, { timeout: e.X402_TIMEOUT_MS, retryCount: 1 }),
  }).extend(publicActions);
  const sender = createSender({
    client,
    account,
    nonces,
    receiptTimeoutMs: e.X402_TIMEOUT_MS,
    lostSendCheckMs: LOST_SEND_CHECK_MS,
    // A leased key signs only while this process still holds it, asked of the database right before.
    beforeSend: options.leased ? () => assertLeaseHeld(account.address) : undefined,
  });
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => {
        enterStep(`a read of ${args.functionName}`);
        return client.readContract({ ...args, args: args.args ?? [] } as never);
      },
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: async ({ address, abi, functionName, args, gas, dataSuffix }) => {
        const data = encodeFunctionData({ abi, functionName, args } as never);
        return sentHash(
          await sender.send({ to: address, data: dataSuffix ? concat([data, dataSuffix]) : data, gas }),
        );
      },
      sendTransaction: async (args) => sentHash(await sender.send(args)),
      // A receipt the send already brought back is answered without asking the chain again.
      waitForTransactionReceipt: async (args) => {
        const kept = receipts.get(args.hash.toLowerCase());
        if (kept) return kept;
        const receipt = await sender.wait(args);
        keepReceipt(receipt);
        return receipt;
      },
      getCode: contractCode(),
    },
    { confirmationTimeoutMs: e.X402_TIMEOUT_MS },
  );
  return { signer, address: account.address, chainId: client.chain.id };
}

/** An in-process facilitator that verifies and settles EIP-3009 payments from one of our keys. */
function facilitatorFor(privateKey: `0x${string}`, leased: boolean) {
  const e = env();
  const { signer, address, chainId } = facilitatorSigner(privateKey, { leased });
  const facilitator = new x402Facilitator();
  // x402 version 2 only: the exact scheme, a plain wallet's payment settled with native crypto.
  facilitator.register(
    e.X402_NETWORK as `${string}:${string}`,
    new PlainWalletExactEvmScheme(signer, new ExactEvmScheme(signer)),
  );
  return { facilitator, address, chainId };
}

/** An in-process facilitator for one key, with no lease (the benchmark's settle ceiling). */
export function singleKeyFacilitator(privateKey: `0x${string}`) {
  return facilitatorFor(privateKey, false);
}

/**
 * The in-process facilitator over every configured key. Verifying sends nothing and may use any key;
 * settling sends from a key this instance holds the database lock of (see signer-lease.ts), so
 * instances never share a key's nonces. A settlement with no key free is refused before anything is sent.
 */
function inProcessFacilitator(): FacilitatorClient {
  const keyed = (env().X402_FACILITATOR_PRIVATE_KEY ?? []).map((key) =>
    facilitatorFor(key as `0x${string}`, true),
  );
  const byAddress = new Map(keyed.map((k) => [k.address, k]));
  const [first] = keyed;
  if (!first) throw new Error("no x402 facilitator key is configured");
  return {
    verify: (payload, requirements) => first.facilitator.verify(payload, requirements),
    settle: async (payload, requirements) => {
      enterStep("the lease of a signing key");
      const lease = await leaseOneOf(keyed.map((k) => k.address));
      const signer = lease && byAddress.get(lease.address as `0x${string}`);
      if (!signer) {
        throw new SettlementUnavailable("every x402 facilitator key is in use by another instance");
      }
      // Another instance may have sent from this key since we last held it: read its nonce afresh.
      if (lease.taken) nonces.reset({ address: signer.address, chainId: signer.chainId });
      return signer.facilitator.settle(payload, requirements);
    },
    getSupported: async () =>
      first.facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient["getSupported"]>>,
  };
}

/** The configured facilitator: remote when X402_FACILITATOR_URL is set, otherwise in-process. */
export function createFacilitator(): FacilitatorClient {
  const e = env();
  if (e.X402_FACILITATOR_URL) {
    return remoteFacilitator({
      url: e.X402_FACILITATOR_URL,
      timeoutMs: e.X402_TIMEOUT_MS,
      reader: x402Reader,
    });
  }
  return inProcessFacilitator();
}
