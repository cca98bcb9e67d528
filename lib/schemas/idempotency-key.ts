/**
 * What an Idempotency-Key promises, in the one wording the OpenAPI header and the MCP tools' `idempotencyKey`
 * share (lib/payment/idempotency.ts keeps it): a key lives as long as the payment made under it.
 */
export const IDEMPOTENCY_KEY_TERMS =
  "A retry with the same key and the same request (body, or a tool's arguments) gets the first answer and is never charged again, even when it carries a newly signed payment; the same key with another request is a 409. Keys are per paying wallet and operation, and are kept as long as the payment made under them: they do not expire. A payment that failed frees its key. An x402 payment's payment-identifier (the x402 extension every 402 declares) is this same key: send either, or the same value in both.";
