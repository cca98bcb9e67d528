import "server-only";
import type { z } from "zod";
import type { PaidOperation } from "@/lib/schemas/operations/operation";
import type { Offer } from "./paid-route";

/** A paid operation of the catalogue as the paid-route wrapper sells it. */
export function offerOf<S extends z.ZodType>(
  op: PaidOperation<z.output<S>> & { body: S },
): Offer<z.output<S>> {
  return {
    operation: op.name,
    price: op.price,
    description: op.payFor,
    schema: op.body as z.ZodType<z.output<S>>,
    discovery: { request: op.example.request, response: op.example.response, output: op.output.schema },
    ...(op.signIn ? { signIn: op.signIn } : {}),
  };
}
