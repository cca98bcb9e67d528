import "server-only";
import { docsLinks } from "@/lib/http/docs";
import { AppError } from "@/lib/http/errors";
import { enforcePaidAddressLimit } from "@/lib/http/rate-limit";
import { formatUsd } from "@/lib/money";
import { mppProtocol } from "./mpp";
import type { Charge, PaymentProtocol } from "./types";
import { x402Protocol } from "./x402";

/** Every protocol a paid call accepts, side by side; a second one plugs in here without touching routes. */
export const PROTOCOLS: readonly PaymentProtocol[] = [x402Protocol, mppProtocol];

/**
 * The 402 a paid call answers without a credential: every protocol's challenge at once. A protocol whose
 * network cannot be asked now (a facilitator down) is left out, so the others still take payments; only
 * when none can offer is it a 503 to retry.
 */
export async function paymentRequired(charge: Charge): Promise<AppError> {
  const settled = await Promise.allSettled(
    PROTOCOLS.filter((p) => p.offers(charge)).map(async (p) => ({
      protocol: p,
      challenge: await p.challenge(charge),
    })),
  );
  const ready = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const failed = settled.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  // Only "its network cannot be asked now" leaves a protocol out; any other failure is the call's.
  const other = failed.find((e) => !(e instanceof AppError && e.status === 503));
  if (other !== undefined) throw other;
  if (!ready.length && failed.length) throw failed[0];
  const offered = ready.map((r) => r.protocol);
  const challenges = ready.map((r) => r.challenge);
  const price = formatUsd(charge.amountMicroUsd);
  return new AppError(
    "payment-required",
    `${charge.description} costs ${price} USD. Pay with ${offered.map((p) => p.name).join(" or ")} and retry the same request.`,
    {
      headers: Object.assign({}, ...challenges.map((c) => c.headers)),
      body: {
        price: { amount: price, currency: "USD" },
        protocols: offered.map((p) => p.name),
        docs: docsLinks(),
        ...Object.assign({}, ...challenges.map((c) => c.body)),
      },
    },
  );
}

/** Refusals of the credential itself: the payer may sign again, so each answer carries fresh challenges. */
const REFUSED_CREDENTIAL = new Set<AppError["code"]>([
  "payment-invalid",
  "settlement-failed",
  "payment-refunded",
  "payment-already-used",
]);

/**
 * A refused credential's answer with a fresh challenge of every protocol offered (WWW-Authenticate:
 * Payment, PAYMENT-REQUIRED naming the refusal), so a client can pay again from this answer alone, as
 * both protocols expect. Answers that ask for the same credential again ("pending") never get one: a new
 * signature there could pay twice. When no challenge can be made now, the refusal goes as it is.
 */
export async function withFreshChallenge(error: unknown, charge: Charge): Promise<unknown> {
  if (!(error instanceof AppError) || !REFUSED_CREDENTIAL.has(error.code)) return error;
  const settled = await Promise.allSettled(
    PROTOCOLS.filter((p) => p.offers(charge)).map((p) => p.challenge(charge, error.detail)),
  );
  const headers = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value.headers] : []));
  if (!headers.length) return error;
  return new AppError(error.code, error.detail, {
    ...error.extra,
    headers: Object.assign({}, ...headers, error.extra.headers),
  });
}

/**
 * A paid route asked without a body and without payment (how scanners look for a price): the 402 that
 * names the price and how to pay it. With a credential, the request goes on, and its missing body is
 * the 400 it deserves.
 */
export async function answerPriceProbe(request: Request, charge: Charge): Promise<void> {
  await enforcePaidAddressLimit(request);
  if (!PROTOCOLS.some((p) => p.hasCredential(request))) throw await paymentRequired(charge);
}

/** The protocol whose credential the request carries; null when it carries none. */
export function protocolOf(request: Request, charge: Charge): PaymentProtocol | null {
  const carried = PROTOCOLS.filter((p) => p.hasCredential(request));
  if (carried.length > 1) {
    throw new AppError(
      "ambiguous-payment",
      "The request carries credentials for more than one payment protocol; send one.",
    );
  }
  const [protocol] = carried;
  if (protocol && !protocol.offers(charge)) {
    const others = PROTOCOLS.filter((p) => p.offers(charge)).map((p) => p.name);
    throw new AppError(
      "payment-invalid",
      `${protocol.name} is not accepted for this call; pay with ${others.join(" or ")}. Nothing was charged.`,
    );
  }
  return protocol ?? null;
}
