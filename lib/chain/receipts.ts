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
