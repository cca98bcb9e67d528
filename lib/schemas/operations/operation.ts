import type { z } from "zod";
import type { Permission } from "../members";

/** The groups of the API, in the order a reader meets them. */
type Tag = "Submitters" | "Owners" | "Webhooks";

/**
 * How a call is let in: a payment, a sign-in proof, (resolve) a payment with a reward and a sign-in
 * without, or (known issues) anyone, with an optional sign-in that shows the owner more.
 */
type Access = "payment" | "sign-in" | "payment-or-sign-in" | "public";

/** An MCP tool that calls the operation's route (lib/mcp/server.ts adds how to pay or sign in). */
type ToolSpec = {
  name: string;
  title: string;
  description: string;
  annotations: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
};

/**
 * One API operation, declared once: the route parses with its schema, and the OpenAPI document,
 * llms.txt, /.well-known/x402 and the MCP server describe it from here.
 */
export type Operation = {
  /** Stable name; for a paid operation, the name its ledger rows and metrics carry. */
  name: string;
  operationId: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  tags: readonly Tag[];
  /** One line, without the price or who may call (both are added from `price` and `access`). */
  summary: string;
  description?: string;
  access: Access;
  /** For a namespace's owner call: what the caller's role must allow (the owner may everything). */
  permission?: Permission;
  body?: z.ZodType;
  query?: z.ZodType;
  output: {
    /** Its schema's name among the OpenAPI document's components. */
    component: string;
    schema: z.ZodType;
    status?: 200 | 202;
    description?: string;
    /** A download: the same records as CSV too (the export). */
    csvExample?: string;
  };
  example: { request?: unknown; query?: Record<string, unknown>; response: unknown };
  /** Refusals beyond the ones every operation of its access has, by status. */
  errors?: Record<string, string>;
  tool?: ToolSpec;
};

/** A paid operation: what it costs and what the payer is told it pays for. */
export type PaidOperation<TInput = never> = Operation & {
  access: "payment" | "payment-or-sign-in";
  /** Micro-USD; or, when the request sets it, the price of a body (null: free) and of a probe (input null). */
  price: bigint | ((input: TInput | null) => bigint | null);
  /** The most it can cost: the fixed price, or a dynamic price's ceiling. */
  maxPrice: bigint;
  /** What the 402 says is being bought. */
  payFor: string | ((price: bigint, input: TInput | null) => string);
  /** Whether a sign-in proof sent with the payment is read (and its nonce spent) on the paid retry. */
  signIn?: "optional";
};

/** Whether an operation is paid. */
export const isPaid = (op: Operation): op is PaidOperation => "price" in op;

/** A fixed price, or null when the request sets it. */
export const fixedPrice = (op: PaidOperation): bigint | null =>
  typeof op.price === "bigint" ? op.price : null;
