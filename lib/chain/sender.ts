import {
  type Address,
  BaseError,
  type Chain,
  type Client,
  type Hash,
  type Hex,
  keccak256,
  type LocalAccount,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  RpcRequestError,
  TransactionNotFoundError,
  type TransactionReceipt,
  type Transport,
  UnsupportedProviderMethodError,
} from "viem";
import {
  getTransaction,
  getTransactionReceipt,
  prepareTransactionRequest,
  sendRawTransaction,
  sendRawTransactionSync,
  waitForTransactionReceipt,
} from "viem/actions";
import type { LocalNonceManager } from "./nonces";
import { waitForReceiptEarly } from "./receipts";
import { enterStep } from "./steps";

type Call = { to: Address; data?: Hex; value?: bigint; gas?: bigint };

/** A sent transaction: its hash always, and its receipt when the node answered with it at once. */
export type Sent = { hash: Hash; receipt?: TransactionReceipt };

const BY_HASH = Symbol("wait by hash");

// Chains (by RPC URL) that answered "method not found" for eth_sendRawTransactionSync: asked once per process.
const syncMissing = new Set<string>();

const isError = (error: unknown, match: (e: unknown) => boolean) =>
  error instanceof BaseError ? Boolean(error.walk(match)) : match(error);

const isMethodMissing = (error: unknown) =>
  isError(
    error,
    (e) =>
      e instanceof MethodNotFoundRpcError ||
      e instanceof MethodNotSupportedRpcError ||
      e instanceof UnsupportedProviderMethodError,
  );

/**
 * Sends transactions from a local account through one RPC client. Signed here, so a send whose answer is lost
 * still leaves a hash to wait for; the receipt comes with the send where the node offers
 * eth_sendRawTransactionSync (EIP-7966), else it is polled.
 */
export function createSender(options: {
  client: Client<Transport, Chain>;
  account: LocalAccount;
  nonces: LocalNonceManager;
  /** How long a background gap filler waits for its receipt. */
  receiptTimeoutMs: number;
  /** Runs right before each transaction takes its nonce and is signed; throwing sends nothing. */
  beforeSend?: () => Promise<void>;
  /**
   * A send still unanswered after this long is looked up by its hash; when the node does not hold it (the
   * request or its answer was lost on the way), the same signed bytes are sent again and the receipt is
   * waited for by hash. Without it, a lost send holds every later nonce until the transport's timeout.
   */
  lostSendCheckMs?: number;
}) {
  const { client, account, nonces } = options;
  const key = { address: account.address, chainId: client.chain.id };
  const rpc = (client.transport as { url?: string }).url ?? client.uid;
  // Nonces of transactions sent (or perhaps sent) without a receipt yet: freed when their wait ends.
  const awaiting = new Map<string, number>();
  const receiptClient = {
    getTransactionReceipt: (args: { hash: Hash }) => getTransactionReceipt(client, args),
    waitForTransactionReceipt: (args: { hash: Hash; timeout?: number }) =>
      waitForTransactionReceipt(client, args),
  };

  // Fees and gas only: the nonce is taken after, so a call that fails estimation never holds one.
  const prepare = (call: Call) =>
    prepareTransactionRequest(client, {
      account,
      chain: client.chain,
      ...call,
      parameters: ["chainId", "fees", "gas", "type"],
    });

  /** Whether the node holds a transaction (pending or mined); undefined when it could not be asked. */
  const held = (hash: Hash) =>
    getTransaction(client, { hash }).then(
      () => true,
      (e) => (e instanceof TransactionNotFoundError ? false : undefined),
    );

  /**
   * The send's own answer, or BY_HASH when it is still unanswered `lostSendCheckMs` in and the node, asked,
   * holds the transaction (its answer is slow or lost: the receipt is waited for by hash) or does not (the
   * send was lost on the way: the same bytes, the same hash and nonce, so never a second transfer, are sent
   * again). Either way the sends behind its nonce wait a block more, not the transport's whole timeout. Its
   * own answer, should it come after all, is dropped.
   */
  function orByHash<T>(sending: Promise<T>, hash: Hash, serialized: Hex) {
    const checkMs = options.lostSendCheckMs;
    if (!checkMs) return sending;
    return new Promise<T | typeof BY_HASH>((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        settle();
      };
      const timer = setTimeout(async () => {
        enterStep(`the node's word on whether it holds ${hash} (its send unanswered after ${checkMs} ms)`);
        const onNode = await held(hash);
        // A node that cannot be asked leaves the send's own answer to decide.
        if (done || onNode === undefined) return;
        done = true;
        if (onNode) return resolve(BY_HASH);
        // Refused now, the send fails as one refused at first would (its nonce freed, the gap filled).
        sendRawTransaction(client, { serializedTransaction: serialized }).then(
          () => resolve(BY_HASH),
          reject,
        );
      }, checkMs);
      sending.then(
        (value) => finish(() => resolve(value)),
        (error) => finish(() => reject(error)),
      );
    });
  }

  /** Sends signed bytes; on failure, decides whether the transaction may still be on its way. */
  async function broadcast(serialized: Hex, nonce: number, fill: boolean): Promise<Sent> {
    const hash = keccak256(serialized);
    enterStep(`the send of nonce ${nonce} (${hash})`);
    try {
      if (!syncMissing.has(rpc)) {
        try {
          const receipt = await orByHash(
            sendRawTransactionSync(client, {
              serializedTransaction: serialized,
              throwOnReceiptRevert: false,
            }),
            hash,
            serialized,
          );
          if (receipt !== BY_HASH) {
            nonces.release(key, nonce, "mined");
            return { hash: receipt.transactionHash, receipt };
          }
          awaiting.set(hash, nonce);
          return { hash };
        } catch (error) {
          if (!isMethodMissing(error)) throw error;
          syncMissing.add(rpc);
        }
      }
      await orByHash(sendRawTransaction(client, { serializedTransaction: serialized }), hash, serialized);
      awaiting.set(hash, nonce);
      return { hash };
    } catch (error) {
      // Ask the node whether it holds the transaction: the error alone cannot say (a lost answer, a
      // sync send that timed out while the transaction waits in the pool).
      if ((await held(hash)) === false) {
        // Not on the node: free its nonce, and fill the gap if later sends wait behind it.
        nonces.release(key, nonce, "failed");
        if (fill) void fillGap().catch(() => undefined);
        // The node answered the send with an error and does not hold it: it was refused.
        if (isError(error, (e) => e instanceof RpcRequestError)) throw error;
      } else {
        awaiting.set(hash, nonce);
      }
      // Perhaps on its way: the hash is waited for like any other.
      return { hash };
    }
  }

  /** Prepares, signs and sends a call, with the next nonce or one already `reserved` for it. */
  async function signAndSend(call: Call, fill: boolean, reserved?: number): Promise<Sent> {
    enterStep("the gas and fees of a transaction");
    const request = await prepare(call)
      .then(async (prepared) => {
        enterStep("the check that this instance still holds its signing key");
        await options.beforeSend?.();
        return prepared;
      })
      .catch((error) => {
        if (reserved !== undefined) nonces.release(key, reserved, "failed");
        throw error;
      });
    enterStep("a nonce");
    const taken = reserved ?? (await nonces.take({ ...key, client }));
    let serialized: Hex;
    try {
      serialized = await account.signTransaction({ ...request, nonce: taken } as never);
    } catch (error) {
      nonces.release(key, taken, "failed");
      throw error;
    }
    return broadcast(serialized, taken, fill);
  }

  /** Waits for a sent transaction's receipt, then frees its nonce: used when mined, free when not. */
  async function wait(args: { hash: Hash; timeout?: number }) {
    const nonce = awaiting.get(args.hash);
    awaiting.delete(args.hash);
    enterStep(`the receipt of ${nonce === undefined ? "" : `nonce ${nonce}, `}${args.hash}`);
    try {
      const receipt = await waitForReceiptEarly(receiptClient, args);
      if (nonce !== undefined) nonces.release(key, nonce, "mined");
      return receipt;
    } catch (error) {
      if (nonce !== undefined) nonces.release(key, nonce, "failed");
      throw error;
    }
  }

  /** A no-op transfer to ourselves at a freed nonce that later transactions wait behind. */
  async function fillGap() {
    const nonce = await nonces.takeGap({ ...key, client });
    if (nonce === null) return;
    const sent = await signAndSend({ to: account.address, value: 0n }, false, nonce);
    if (!sent.receipt) await wait({ hash: sent.hash, timeout: options.receiptTimeoutMs });
  }

  return {
    /** Signs and sends one call with the next local nonce. */
    send: (call: Call) => signAndSend(call, true),
    wait,
  };
}
