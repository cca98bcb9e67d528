import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import {
  isValidPaymentId,
  PAYMENT_ID_MAX_LENGTH,
  PAYMENT_ID_MIN_LENGTH,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import { getAddress } from "viem";
import { z } from "zod";
import { AppError, type FieldError } from "@/lib/http/errors";

/** What this route offered an x402 payer: the one requirement it may pay, and the resource it buys. */
export type X402Offer = {
  requirement: PaymentRequirements;
  resource: {
    url: string;
    description: string;
    mimeType: string;
    serviceName?: string;
    tags?: string[];
    iconUrl?: string;
  };
};

/** An x402 credential that reads as a payment for exactly this offer; nothing about it is verified yet. */
export type X402Credential = {
  payload: PaymentPayload;
  requirement: PaymentRequirements;
  /** The replay domain: the EIP-3009 nonce is spent once per token and authorizer, on chain. */
  paymentKey: string;
  /** The authorizer the credential names; the facilitator proves it signed. */
  payer: `0x${string}`;
  /** After this instant (validBefore) the authorization can no longer move money. */
  expiresAt: Date;
  /** The `payment-identifier` extension's id the client sent, if any: its idempotency key. */
  paymentIdentifier: string | null;
};

/**
 * How long an x402 payment stays valid (its validBefore, as the official client signs it): ample to
 * settle, and short, so a claim a crash left open is decided by the chain within minutes.
 */
export const X402_MAX_TIMEOUT_SECONDS = 60;

/**
 * An x402 header's value: the JSON of `value` as base64 of its UTF-8 bytes, the very text the SDK's
 * encodePaymentRequiredHeader and encodePaymentResponseHeader write. Theirs goes through `btoa` one
 * character per byte (about 0.3 ms for a 402's 3 KB header); Buffer does it at once.
 */
export function x402HeaderOf(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/** Clocks differ: an authorization may live this much longer than the route's own timeout. */
const CLOCK_SKEW_SECONDS = 300;
// The facilitator refuses an authorization that expires within 6 seconds; so do we, before any claim.
const MIN_REMAINING_SECONDS = 6;
const HEADER = "PAYMENT-SIGNATURE";
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const MAX_HEADER_CHARS = 16_384;

const UINT256_MAX = 2n ** 256n - 1n;
const uint256 = z
  .string({ error: "must be a decimal integer string" })
  .regex(/^(0|[1-9][0-9]{0,77})$/, {
    error: "must be a decimal integer string without sign, dot or leading zeros",
    abort: true,
  })
  .refine((v) => BigInt(v) <= UINT256_MAX, "must fit in 256 bits");
const address = z
  .string({ error: "must be an address" })
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");
const bytes32 = z
  .string({ error: "must be hex" })
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex string");
// 65 bytes for a plain wallet; smart wallets (EIP-1271, EIP-6492) sign with more.
const signature = z
  .string({ error: "must be hex" })
  .regex(/^0x(?:[0-9a-fA-F]{2}){65,8192}$/, "must be a 0x-prefixed hex signature of 65 bytes or more");

const envelopeSchema = z.strictObject({
  x402Version: z.literal(2, { error: "must be 2" }),
  accepted: z.record(z.string(), z.unknown(), { error: "must be the requirement that was accepted" }),
  resource: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
  // Informational for this scheme: clients add their own; nothing here is read or trusted.
  extensions: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
  payload: z.strictObject({
    signature,
    authorization: z.strictObject({
      from: address,
      to: address,
      value: uint256,
      validAfter: uint256,
      validBefore: uint256,
      nonce: bytes32,
    }),
  }),
});

function refused(errors: FieldError[]): AppError {
  const named = errors.map((e) => `${e.field} ${e.message}`).join("; ");
  return new AppError(
    "payment-invalid",
    `The x402 payment was refused before anything was charged: ${named}.`,
    {
      errors,
    },
  );
}

/** Key order and spelling aside, the same JSON value. */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
        )
      : Array.isArray(v)
        ? v.map(canonical)
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function decode(header: string | null): unknown {
  if (!header || header.length > MAX_HEADER_CHARS || !/^[A-Za-z0-9+/]+={0,2}$/.test(header)) {
    throw refused([{ field: HEADER, message: "is not base64 (standard alphabet) of at most 16 KiB" }]);
  }
  let forbidden: string | undefined;
  let value: unknown;
  try {
    // A key that names an object's prototype is never a payment field, and some parsers drop it silently.
    value = JSON.parse(Buffer.from(header, "base64").toString("utf8"), (key, v) => {
      if (PROTOTYPE_KEYS.has(key)) forbidden ??= key;
      return v;
    });
  } catch {
    throw refused([{ field: HEADER, message: "is not base64 of a JSON payment payload" }]);
  }
  if (forbidden) throw refused([{ field: HEADER, message: `holds the field ${forbidden}` }]);
  return value;
}

/**
 * The payment-identifier extension's `info`, by the extension's own rules: `required` a boolean, `id` absent
 * or 16 to 128 letters, digits, `-` and `_`. Any `schema` the client sent beside it is not run: the header
 * is read before any signature is checked, so it is anyone's to write, and compiling a client's JSON schema
 * (what `validatePaymentIdentifier` of @x402/extensions does, a new validator each call) lets one unsigned
 * request spend the server's CPU at will and choose which ids pass.
 */
function readPaymentIdentifier(extension: unknown): { id: string | null } | { problem: string } {
  const info = (extension as { info?: unknown } | null)?.info;
  if (typeof info !== "object" || info === null) return { problem: "its info must be an object" };
  const { required, id } = info as { required?: unknown; id?: unknown };
  if (typeof required !== "boolean") return { problem: "info.required must be true or false" };
  if (id === undefined) return { id: null };
  if (typeof id !== "string" || !isValidPaymentId(id)) {
    return {
      problem: `info.id must be ${PAYMENT_ID_MIN_LENGTH} to ${PAYMENT_ID_MAX_LENGTH} letters, digits, "-" or "_"`,
    };
  }
  return { id };
}

/**
 * Reads an x402 PAYMENT-SIGNATURE strictly, before any ledger row and offline: numbers in range, hex of its
 * length, paying exactly what this route offered (requirement, resource, recipient, amount) in a bounded
 * window, so another route's or price's credential is never claimed here. Throws a 402 naming each bad field.
 */
export function parseX402Credential(
  header: string | null,
  offer: X402Offer,
  nowSeconds = Math.floor(Date.now() / 1000),
): X402Credential {
  const parsed = envelopeSchema.safeParse(decode(header));
  if (!parsed.success) {
    throw refused(
      parsed.error.issues.map((issue) => ({
        field: [HEADER, ...issue.path.map(String)].join("."),
        message:
          issue.code === "unrecognized_keys"
            ? `has unknown fields: ${issue.keys.join(", ")}`
            : issue.code === "invalid_type" && issue.input === undefined
              ? "is required"
              : issue.message,
      })),
    );
  }
  const envelope = parsed.data;
  const { requirement, resource } = offer;
  const auth = envelope.payload.authorization;
  const errors: FieldError[] = [];
  const field = (path: string) => `${HEADER}.${path}`;
  if (!sameJson(envelope.accepted, requirement)) {
    errors.push({ field: field("accepted"), message: "is not the requirement this route offered" });
  }
  // The resource is what is bought, exactly as offered (url, description, type), but for the service's Bazaar
  // metadata beside them (serviceName, tags, iconUrl): it describes the seller, and a client may leave it out.
  const bought = ({ serviceName: _n, tags: _t, iconUrl: _i, ...what }: Record<string, unknown>) => what;
  if (envelope.resource !== undefined && !sameJson(bought(envelope.resource), bought(resource))) {
    errors.push({ field: field("resource"), message: `is not this route's resource (${resource.url})` });
  }
  if (getAddress(auth.to) !== getAddress(requirement.payTo)) {
    errors.push({ field: field("payload.authorization.to"), message: "is not this route's recipient" });
  }
  if (auth.value !== requirement.amount) {
    errors.push({ field: field("payload.authorization.value"), message: `must be ${requirement.amount}` });
  }
  if (BigInt(auth.validAfter) >= BigInt(nowSeconds)) {
    errors.push({ field: field("payload.authorization.validAfter"), message: "is not in the past" });
  }
  const validBefore = BigInt(auth.validBefore);
  const latest = nowSeconds + requirement.maxTimeoutSeconds + CLOCK_SKEW_SECONDS;
  if (validBefore < BigInt(nowSeconds + MIN_REMAINING_SECONDS)) {
    errors.push({ field: field("payload.authorization.validBefore"), message: "has passed or is about to" });
  } else if (validBefore > BigInt(latest)) {
    errors.push({
      field: field("payload.authorization.validBefore"),
      message: `is more than ${requirement.maxTimeoutSeconds} seconds away`,
    });
  }
  const identifier = envelope.extensions?.[PAYMENT_IDENTIFIER];
  let paymentIdentifier: string | null = null;
  if (identifier !== undefined) {
    const checked = readPaymentIdentifier(identifier);
    if ("problem" in checked) {
      errors.push({
        field: field(`extensions.${PAYMENT_IDENTIFIER}`),
        message: `is not a payment identifier: ${checked.problem}`,
      });
    } else paymentIdentifier = checked.id;
  }
  if (errors.length > 0) throw refused(errors);

  const payer = getAddress(auth.from);
  return {
    payload: envelope as unknown as PaymentPayload,
    requirement,
    paymentKey: `x402:${requirement.network}:${requirement.asset.toLowerCase()}:${payer.toLowerCase()}:${auth.nonce.toLowerCase()}`,
    payer,
    expiresAt: new Date(Number(validBefore) * 1000),
    paymentIdentifier,
  };
}

/** The fields of an x402 payment key: the token, the authorizer and the EIP-3009 nonce. */
export function x402KeyParts(paymentKey: string) {
  const match = /^x402:[^:]+:[^:]+:(0x[0-9a-f]{40}):(0x[0-9a-f]{40}):(0x[0-9a-f]{64})$/.exec(paymentKey);
  if (!match) return null;
  const [, asset, authorizer, nonce] = match as unknown as [
    string,
    `0x${string}`,
    `0x${string}`,
    `0x${string}`,
  ];
  return { asset, authorizer, nonce };
}
