import { readJson } from "../http";
import type { Paid } from "../types";

/** The settlement transaction from an x402 PAYMENT-RESPONSE header (base64 JSON), if any. */
function settlementTxHash(response: Response): string | null {
  const header = response.headers.get("payment-response");
  if (!header) return null;
  try {
    const decoded = JSON.parse(atob(header)) as { transaction?: unknown };
    return typeof decoded.transaction === "string" ? decoded.transaction : null;
  } catch {
    return null;
  }
}

/** POSTs JSON through a (possibly paying) fetch and reads the answer and its settlement. */
export async function postPaid<T>(pay: typeof fetch, path: string, body: unknown): Promise<Paid<T>> {
  const response = await pay(new URL(path, window.location.origin).toString(), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const txHash = settlementTxHash(response);
  return { result: await readJson<T>(response), txHash };
}
