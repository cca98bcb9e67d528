import "server-only";
import type { z } from "zod";
import { optionalSignIn } from "@/lib/auth/siwx";
import { readJsonBody } from "@/lib/http/body";
import { handle } from "@/lib/http/handler";
import { publicUrl } from "@/lib/http/resource";
import { parseInput } from "@/lib/http/validate";
import { answerPriceProbe } from "./challenge";
import { runPaid } from "./paid";
import type { Caller, Charge, Discovery, PaidCall, PaidWrite } from "./types";

/** What a paid route sells, declared on the route: the price, the body it takes and what it answers. */
export type Offer<TInput> = {
  /** Stable operation name, recorded in the ledger. */
  operation: string;
  /**
   * The price in micro-USD, or, when the request sets it, the price of a body (`null` for a body
   * that buys nothing: the route's `free` answer) and of a body-less probe (`input` null).
   */
  price: bigint | ((input: TInput | null) => bigint | null);
  /** What the payer is asked to pay for, by price. */
  description: string | ((price: bigint, input: TInput | null) => string);
  /** The request body's schema: a bad body is a 400 naming the field, before any price is named. */
  schema: z.ZodType<TInput>;
  /** Examples and the answer's schema, for the 402's discovery extension. */
  discovery: { request: unknown; response: unknown; output: z.ZodType };
  /** Whether a sign-in proof sent with the payment is read (and its nonce spent) on the paid retry. */
  signIn?: "optional";
};

/** A write and how it is finished after it is stored (paying a reward out); see PaidCall.finish. */
export type PaidRoute<TInput, TBody> = {
  /** Every check that can refuse before the charge, then the write; nothing here sees a Request. */
  write: (input: TInput, caller: Caller) => Promise<PaidWrite<TBody>> | PaidWrite<TBody>;
  finish?: PaidCall<TBody>["finish"];
  /** The answer to a body whose price is null (e.g. a resolve without a reward). */
  free?: (input: TInput, request: Request) => Promise<Response>;
};

function chargeOf<TInput>(
  offer: Offer<TInput>,
  request: Request,
  input: TInput | null,
  price: bigint,
): Charge {
  const discovery: Discovery = {
    input: { example: offer.discovery.request, schema: offer.schema },
    output: { example: offer.discovery.response, schema: offer.discovery.output },
  };
  return {
    operation: offer.operation,
    method: "POST",
    amountMicroUsd: price,
    resourceUrl: publicUrl(request),
    description: typeof offer.description === "string" ? offer.description : offer.description(price, input),
    discovery,
  };
}

function priceOf<TInput>(offer: Offer<TInput>, input: TInput | null): bigint | null {
  return typeof offer.price === "bigint" ? offer.price : offer.price(input);
}

/** The charge a body-less probe is quoted: the offer's price without a body (a dynamic one's largest). */
function probeCharge<TInput>(offer: Offer<TInput>, request: Request): Charge {
  const price = priceOf(offer, null);
  if (price === null) throw new Error(`${offer.operation}: an offer must quote a price to a probe`);
  return chargeOf(offer, request, null, price);
}

/**
 * A paid POST route: `POST = paid(offer, { write })`. It reads and validates the body (a body-less
 * probe is answered with the 402 and its price), then runs the write through the payment pipeline
 * (runPaid), which owns both protocols, the ledger and every answer about money.
 */
export function paid<TInput, TBody>(offer: Offer<TInput>, route: PaidRoute<TInput, TBody>) {
  return handle(async (request) => {
    const probe = () => answerPriceProbe(request, probeCharge(offer, request));
    const input = parseInput(offer.schema, await readJsonBody(request, { whenEmpty: probe }));
    const price = priceOf(offer, input);
    if (price === null) {
      if (!route.free) throw new Error(`${offer.operation}: a body without a price needs a free answer`);
      return route.free(input, request);
    }
    return runPaid(request, {
      charge: chargeOf(offer, request, input, price),
      body: input,
      prepare: async (paying) => {
        // Only the paid retry reads a proof, so the unpaid first ask does not spend its nonce; an
        // invalid proof is still refused before the payment is taken.
        const signedIn = paying && offer.signIn ? await optionalSignIn(request) : null;
        return route.write(input, { signedIn, paying });
      },
      ...(route.finish ? { finish: route.finish } : {}),
    });
  });
}
