import "server-only";
import { env } from "@/lib/env";
import { docsLinks } from "@/lib/http/docs";
import { PAID_OPERATIONS } from "@/lib/schemas/operations/catalog";
import { agentGuidance, paymentProtocols, priceOf } from "./catalog";

/**
 * The /.well-known/x402 document: the paid resources on the public origin with their price and how
 * each protocol pays it. `resources` is the plain URL list discovery crawlers read, `instructions` the
 * agent guidance; `items` details each resource and `mpp.resources` lists the MPP way to pay each.
 */
export function x402Discovery() {
  const origin = env().PUBLIC_ORIGIN;
  const items = PAID_OPERATIONS.map((op) => {
    const { x402, mpp } = paymentProtocols(op);
    const price = priceOf(op);
    return {
      resource: `${origin}${op.path}`,
      method: op.method,
      operationId: op.operationId,
      description: op.summary,
      mimeType: "application/json",
      price: { amount: price.amount, currency: "USD", ...(price.dynamic ? { dynamic: price.dynamic } : {}) },
      accepts: x402 ? [{ ...x402, amount: price.x402Amount }] : [],
      mpp: { ...mpp, amount: price.mppAmount },
    };
  });
  return {
    version: 1,
    resources: items.map((i) => i.resource),
    instructions: agentGuidance(),
    items,
    mpp: { resources: items.map(({ resource, mpp }) => ({ resource, ...mpp })) },
    docs: docsLinks(),
  };
}
