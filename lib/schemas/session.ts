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

/**
 * Who a verified sign-in (a SIGN-IN-WITH-X proof or a browser session) says is calling: the one
 * identity type of the service, also kept in the ledger with a paid submission that carried a proof.
 */
export const identitySchema = z.object({
  /** EIP-55 checksummed wallet address. */
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/) as z.ZodType<`0x${string}`>,
  /** CAIP-2 chain the proof was signed for, e.g. "eip155:8453". */
  chainId: z.string(),
  /** "did:pkh:<caip2>:<address>". */
  did: z.string(),
  /**
   * The chain a contract wallet (EIP-1271/6492) proved this identity on: it is an identity there only.
   * Null when a plain key signed (the signature recovers to the address): one identity on every chain.
   */
  contractOn: z.string().nullable().default(null),
});
export type Identity = z.output<typeof identitySchema>;
