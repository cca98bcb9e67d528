import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { encodeSIWxHeader } from "@x402/extensions/sign-in-with-x";
import { Challenge, Credential, Receipt } from "mppx";
import { z } from "zod";
import { validationError } from "@/lib/http/errors";
import { problemResponse } from "@/lib/http/problem";
import { formatUsd } from "@/lib/money";
import { mcpBazaarExtension } from "@/lib/payment/discovery";
import { IDEMPOTENCY_KEY_TERMS } from "@/lib/schemas/idempotency-key";
import { ALL_OPERATIONS, OPERATIONS } from "@/lib/schemas/operations/catalog";
import { fixedPrice, isPaid, type Operation } from "@/lib/schemas/operations/operation";

/** `_meta` keys a tool call may carry, each the MCP form of an HTTP header of the same route. */
const META = {
  /** x402's MCP transport: a PaymentPayload object (HTTP: PAYMENT-SIGNATURE). */
  x402Payment: "x402/payment",
  /** x402's MCP transport: the SettleResponse on a paid result (HTTP: PAYMENT-RESPONSE). */
  x402Response: "x402/payment-response",
  /** MPP over MCP: a Credential object (HTTP: Authorization: Payment). */
  mppCredential: "org.paymentauth/credential",
  /** MPP over MCP: the challenges of a result that asks for payment (HTTP: WWW-Authenticate). */
  mppRequired: "org.paymentauth/payment-required",
  /** MPP over MCP: the receipt on a paid result (HTTP: Payment-Receipt). */
  mppReceipt: "org.paymentauth/receipt",
  /** A sign-in proof, as the SIGN-IN-WITH-X header's value or as the decoded payload object. */
  signIn: "sign-in-with-x",
} as const;

/** One API route as a tool call reaches it. */
export type RouteCall = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers: Headers;
};
export type Dispatch = (call: RouteCall) => Promise<Response>;

type ToolRoute = {
  tool: Tool;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  /** Whether the call can be paid (and so takes an idempotencyKey). */
  paid: boolean;
};

const IDEMPOTENCY_KEY = {
  type: "string",
  description: `Optional: your key for this call (1 to 255 visible ASCII characters, e.g. a UUID); send it again after a failure instead of paying twice. ${IDEMPOTENCY_KEY_TERMS}`,
} as const;

function inputSchema(schema: z.ZodType, paid: boolean): Tool["inputSchema"] {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  const properties = { ...(json.properties as Record<string, unknown>) };
  if (paid) properties.idempotencyKey = IDEMPOTENCY_KEY;
  return { ...json, type: "object", properties } as Tool["inputSchema"];
}

const PAYMENT_HOWTO =
  "Called without payment, it answers isError with the price: an x402 PaymentRequired in structuredContent (pay with _meta['x402/payment']) and MPP challenges in _meta['org.paymentauth/payment-required'] (pay with _meta['org.paymentauth/credential']).";
const SIGN_IN_HOWTO =
  "Needs the wallet's sign-in: called without one, it answers isError with a sign-in challenge in structuredContent.extensions['sign-in-with-x']; sign it (SIWX, on any chain listed) and call again with the proof in _meta['sign-in-with-x'].";

const usd = (microUsd: bigint) => `${formatUsd(microUsd)} USD`;

/** What a tool costs and how to pay or sign in, from the catalogue: a price is never written by hand. */
function terms(op: Operation): string {
  if (op.access === "public") return "Free, no sign-in.";
  if (!isPaid(op)) return `Free. ${SIGN_IN_HOWTO}`;
  const fixed = fixedPrice(op);
  const price =
    fixed === null
      ? `Free without a reward (${SIGN_IN_HOWTO}); with one (above 0, at most ${formatUsd(op.maxPrice)} USD) it costs the reward.`
      : `Costs ${formatUsd(fixed)} USD.`;
  return `${price} ${PAYMENT_HOWTO}`;
}

/** Each tool of the catalogue, calling its operation's route with the route's own schema. */
const TOOLS: readonly ToolRoute[] = ALL_OPERATIONS.flatMap((op) => {
  const { tool } = op;
  const schema = op.body ?? op.query;
  if (!tool || !schema) return [];
  const paid = isPaid(op);
  return [
    {
      method: op.method,
      path: op.path,
      paid,
      tool: {
        name: tool.name,
        title: tool.title,
        description: `${tool.description} ${terms(op)}`,
        inputSchema: inputSchema(schema, paid),
        annotations: tool.annotations,
      },
    },
  ];
});

const BY_NAME = new Map(TOOLS.map((t) => [t.tool.name, t]));

/** The route each tool calls, which the endpoint must map. */
export const TOOL_ROUTES = TOOLS.map(({ method, path }) => ({ method, path }));

/** Names the MCP server lists, in order. */
export const TOOL_NAMES = TOOLS.map((t) => t.tool.name);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A refusal of the call's own making: the 400 the route would answer, as a tool result. */
function refusal(field: string, message: string): Promise<CallToolResult> {
  return toToolResult(problemResponse(validationError([{ field, message }]), "/mcp"), undefined);
}

/** The Authorization header of an MPP credential object, in its parsed form or its wire form. */
function mppAuthorization(value: unknown): string | null {
  if (!isRecord(value) || !isRecord(value.challenge)) return null;
  if (typeof value.challenge.request === "string")
    return `Payment ${Buffer.from(JSON.stringify(value)).toString("base64url")}`;
  try {
    return Credential.serialize(value as unknown as Credential.Credential);
  } catch {
    return null;
  }
}

/** The route headers a call's `_meta` stands for; a string naming the bad key when one is malformed. */
function headersOf(meta: Record<string, unknown>, base: Headers): Headers | string {
  const headers = new Headers(base);
  const x402 = meta[META.x402Payment];
  if (x402 !== undefined) {
    if (!isRecord(x402)) return `_meta["${META.x402Payment}"]`;
    headers.set("payment-signature", Buffer.from(JSON.stringify(x402)).toString("base64"));
  }
  const mpp = meta[META.mppCredential];
  if (mpp !== undefined) {
    const authorization = mppAuthorization(mpp);
    if (!authorization) return `_meta["${META.mppCredential}"]`;
    headers.set("authorization", authorization);
  }
  const signIn = meta[META.signIn];
  if (signIn !== undefined) {
    if (typeof signIn === "string") headers.set("sign-in-with-x", signIn);
    else if (isRecord(signIn)) headers.set("sign-in-with-x", encodeSIWxHeader(signIn as never));
    else return `_meta["${META.signIn}"]`;
  }
  return headers;
}

/** A route's answer as a tool result: its JSON body, and its payment headers as `_meta`. */
async function toToolResult(res: Response, credential: unknown, spec?: ToolRoute): Promise<CallToolResult> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Every route answers JSON; anything else is passed on as text.
  }
  const meta: Record<string, unknown> = {};
  let structured = isRecord(body) ? body : { body };
  const paymentResponse = res.headers.get("payment-response");
  if (paymentResponse) meta[META.x402Response] = decodePaymentResponseHeader(paymentResponse);
  const receipt = res.headers.get("payment-receipt");
  if (receipt) {
    const challengeId =
      isRecord(credential) && isRecord(credential.challenge) ? credential.challenge.id : undefined;
    meta[META.mppReceipt] = { ...Receipt.deserialize(receipt), ...(challengeId ? { challengeId } : {}) };
  }
  if (res.status === 402) {
    const required = res.headers.get("payment-required");
    if (required) {
      const paymentRequired = decodePaymentRequiredHeader(required);
      // A tool is found in a catalog as an MCP tool (its name and arguments), not as the route it calls.
      if (spec && paymentRequired.extensions?.bazaar) {
        paymentRequired.extensions = { ...paymentRequired.extensions, ...mcpBazaarExtension(spec.tool) };
      }
      const detail = isRecord(body) && typeof body.detail === "string" ? body.detail : undefined;
      // A refused credential's answer keeps its problem (status, the fields it names) beside the fresh
      // challenge it carries; the first 402 is the challenge alone, as x402's MCP transport reads it.
      const refusal = isRecord(body) && body.type !== "/problems/payment-required" ? body : {};
      structured = {
        ...refusal,
        ...paymentRequired,
        ...(detail && !paymentRequired.error ? { error: detail } : {}),
      };
    }
    if (res.headers.get("www-authenticate")?.includes("Payment ")) {
      const challenges = Challenge.fromResponseList(res);
      if (challenges.length) meta[META.mppRequired] = { httpStatus: 402, challenges, problem: body };
    }
  }
  return {
    ...(res.ok ? {} : { isError: true }),
    content: [{ type: "text", text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(Object.keys(meta).length ? { _meta: meta } : {}),
  };
}

const QUERY_VALUE = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The MCP server: each tool is one API route called in process, its arguments as the body or query and its
 * `_meta` as the payment and sign-in headers, so a tool call has every guarantee of HTTP: nothing charged for
 * a refused call, nothing charged twice, a 4xx for bad input.
 */
export function createMcpServer(dispatch: Dispatch, base: Headers, version: string): Server {
  const server = new Server(
    { name: "feedback-service", title: "Feedback service", version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: `File feedback (${usd(OPERATIONS.feedback.price)}) into any namespace with submit_feedback, paid over x402 or MPP; follow up with feedback_status after signing in with the paying wallet. Owners register a name (${usd(OPERATIONS.register.price)}), read their inbox with list_feedback and resolve items, optionally with a USDC reward, with resolve_feedback.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => t.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const spec = BY_NAME.get(params.name);
    if (!spec) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const args = params.arguments ?? {};
    const { idempotencyKey, ...rest } = args;
    const headers = headersOf(params._meta ?? {}, base);
    if (typeof headers === "string") return refusal(headers, "is not a valid value for this key");
    if (idempotencyKey !== undefined) {
      if (!spec.paid) return refusal("idempotencyKey", "is not accepted by a free tool");
      if (typeof idempotencyKey !== "string") return refusal("idempotencyKey", "must be a string");
      headers.set("idempotency-key", idempotencyKey);
    }
    let call: RouteCall;
    if (spec.method === "GET") {
      const query = Object.fromEntries(
        Object.entries(rest)
          .filter(([, v]) => v !== undefined && v !== null)
          .map(([k, v]) => [k, QUERY_VALUE(v)]),
      );
      call = { method: "GET", path: spec.path, query, headers };
    } else {
      headers.set("content-type", "application/json");
      call = { method: spec.method, path: spec.path, body: rest, headers };
    }
    return toToolResult(await dispatch(call), params._meta?.[META.mppCredential], spec);
  });
  return server;
}
