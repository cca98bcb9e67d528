import "server-only";
import type { z } from "zod";
import { CSV_COLUMNS } from "@/lib/domain/feedback/export-format";
import { formatUsd } from "@/lib/money";
import { IDEMPOTENCY_KEY_TERMS } from "@/lib/schemas/idempotency-key";
import { WHO_MAY } from "@/lib/schemas/members";
import { ALL_OPERATIONS } from "@/lib/schemas/operations/catalog";
import { fixedPrice, isPaid, type Operation } from "@/lib/schemas/operations/operation";
import { paymentInfoFor, REQUEST_CAPS } from "./catalog";
import { type JsonSchema, problem, ref, schemaOf } from "./components";

const BAD_INPUT = {
  "400": problem("Invalid input: `errors` names each bad field"),
  "429": problem("Too many requests: retry after the Retry-After header's seconds"),
};
const BODY_ERRORS = {
  "413": problem(`Body over ${REQUEST_CAPS.bodyBytes} bytes, refused before parsing`),
  "415": problem("Body is not JSON"),
};
const SIGNED_IN = {
  "401": problem("The sign-in proof does not verify"),
  "402": problem("Authentication Required: a sign-in-with-x challenge in PAYMENT-REQUIRED"),
};
const OWNER = { "403": problem("Not the namespace owner"), "404": problem("No such namespace") };
const TEAM = {
  "403": problem(
    "Neither the namespace's owner nor a member of it (not-owner), or a member whose role does not allow this call (role-forbidden)",
  ),
  "404": problem("No such namespace"),
};
const PAID_ERRORS = {
  "402": problem(
    "Payment required (x402 challenge in PAYMENT-REQUIRED, MPP in WWW-Authenticate), or a credential refused, unsettled or refunded: nothing of it stayed with the service, sign a new one",
  ),
  "409": problem(
    "Conflict: a credential that already paid for another request, an Idempotency-Key used for another body, a taken name, an item already resolved",
  ),
  "503": problem(
    "The payment network is unavailable and nothing was charged (retry); payment-pending: a payment being processed or not yet confirmed, completed from the chain and never charged twice; or service-unavailable: the service's database could not be reached for a moment. For the last two, send the same request with the same payment later, after Retry-After; do not re-sign. service-busy: the service is past its capacity and refused the call before reading its payment, nothing charged; send the same request (with the same payment, if it carried one) after Retry-After",
  ),
};

/** The Idempotency-Key header every paid operation accepts. */
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: `Your key for this request (1 to 255 visible ASCII characters, e.g. a UUID). ${IDEMPOTENCY_KEY_TERMS}`,
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};

/** Query parameters from a strict query schema: one parameter per property, with its example value. */
function queryParameters(schema: z.ZodType, example: Record<string, unknown> = {}) {
  const json = schemaOf(schema, "input") as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties).map(([name, s]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: s,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    ...(name in example ? { example: example[name] } : {}),
  }));
}

const ownersOnly = (op: Operation) => !op.tags.includes("Submitters");

/** Who may call and what it costs, after the summary: the price is the catalogue's, never prose. */
function terms(op: Operation): string {
  if (isPaid(op)) {
    const fixed = fixedPrice(op);
    return fixed === null ? `0 to ${formatUsd(op.maxPrice)} USD` : `${formatUsd(fixed)} USD`;
  }
  if (op.access === "public") return "free, no sign-in";
  if (op.permission) return `${WHO_MAY[op.permission]}, free, signed in`;
  return ownersOnly(op) ? "owner, free, signed in" : "free, signed in";
}

function success(op: Operation) {
  const { output, example } = op;
  const description = output.description ?? "Success";
  if (output.csvExample !== undefined) {
    return {
      description,
      content: {
        "text/csv": { schema: { type: "string" }, example: output.csvExample },
        "application/json": { schema: ref(output.component), example: example.response },
      },
    };
  }
  return {
    description,
    content: { "application/json": { schema: ref(output.component), example: example.response } },
  };
}

function refusals(op: Operation) {
  const paid = isPaid(op) ? PAID_ERRORS : {};
  const team = op.permission ? TEAM : OWNER;
  const signedIn = op.access === "sign-in" ? { ...SIGNED_IN, ...(ownersOnly(op) ? team : {}) } : {};
  const body = op.body ? BODY_ERRORS : {};
  const own = Object.fromEntries(
    Object.entries(op.errors ?? {}).map(([status, text]) => [status, problem(text)]),
  );
  return { ...BAD_INPUT, ...signedIn, ...body, ...paid, ...own };
}

function operationObject(op: Operation) {
  const parameters = [
    ...(isPaid(op) ? [IDEMPOTENCY_KEY] : []),
    ...(op.query ? queryParameters(op.query, op.example.query) : []),
  ];
  // A public read is open to anyone (`security: []`): its owner's signed-in preview is one of its parameters,
  // which its description names, not a second way to call it.
  const security =
    op.access === "sign-in"
      ? [{ siwx: [] }]
      : op.access === "payment-or-sign-in"
        ? [{}, { siwx: [] }]
        : op.access === "public"
          ? []
          : undefined;
  const description =
    op.name === "export"
      ? `${op.summary}: every item the view's filters select, newest first, streamed without a size limit. CSV: RFC 4180 (CRLF, a UTF-8 byte order mark), columns ${CSV_COLUMNS.join(", ")}; lists and objects as JSON; a cell that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR, also behind spaces or line breaks, or full-width) is prefixed with a single quote. JSON: an array of records (the full record's fields without history).`
      : op.description;
  return {
    operationId: op.operationId,
    tags: [...op.tags],
    summary: `${op.summary} (${terms(op)})`,
    ...(description ? { description } : {}),
    ...(security ? { security } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: schemaOf(op.body, "input"), example: op.example.request },
            },
          },
        }
      : {}),
    responses: { [String(op.output.status ?? 200)]: success(op), ...refusals(op) },
    ...(isPaid(op) ? { "x-payment-info": paymentInfoFor(op) } : {}),
  };
}

/** The document's paths: every operation of the catalogue, under its path and method. */
export function operationPaths() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ALL_OPERATIONS) {
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operationObject(op) };
  }
  return paths;
}
