import { type Chain, type Client, type Hash, TransactionReceiptNotFoundError, type Transport } from "viem";
import { getTransactionReceipt } from "viem/actions";

/**
 * A transaction's receipt, or null when the chain answered that it has none. Any failure to get an
 * answer (a timeout, a refused connection, a 429 or 5xx) throws: "the chain could not be asked" is
 * never read as "not mined", or a payment could be sent twice.
 */
export async function lookupReceipt(client: Client<Transport, Chain | undefined>, hash: Hash) {
  try {
    return await getTransactionReceipt(client, { hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

// A receipt usually exists a few milliseconds after the send (a devnet mines on arrival, fast chains
// include within a block), but viem's wait, after one early miss, sleeps a whole polling interval. Look
// again a few times early, then fall back to viem's block polling for the rest of the timeout.
const EARLY_LOOKS_MS = [0, 10, 20, 40, 80];

type ReceiptClient<R> = {
  getTransactionReceipt(args: { hash: Hash }): Promise<R>;
  waitForTransactionReceipt(args: { hash: Hash; timeout?: number }): Promise<R>;
};

/** Waits for a sent transaction's receipt: early looks first, then viem's polling until the timeout. */
export async function waitForReceiptEarly<R>(
  client: ReceiptClient<R>,
  args: { hash: Hash; timeout?: number },
) {
  const started = Date.now();
  for (const delay of EARLY_LOOKS_MS) {
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const receipt = await client.getTransactionReceipt({ hash: args.hash }).catch(() => undefined);
    if (receipt) return receipt;
  }
  const timeout = args.timeout === undefined ? undefined : Math.max(1, args.timeout - (Date.now() - started));
  return client.waitForTransactionReceipt({ hash: args.hash, timeout });
}
