import { z } from "zod";
import { chars } from "./text";

/** Body of POST /api/auth/session: a SIWE (EIP-4361) message and the wallet's signature over it. */
export const signInSchema = z.strictObject({
  message: chars(1, 4000),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]{130,}$/, { error: "must be a 0x-prefixed hex signature" })
    .max(20_000),
});
export type SignInInput = z.output<typeof signInSchema>;
