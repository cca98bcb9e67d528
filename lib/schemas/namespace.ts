import { z } from "zod";
import { chars, optional } from "./text";

const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9-]{1,28}[a-z0-9]$/;

/** Body of POST /api/namespace/register (contract 2.3). */
export const registerNamespaceSchema = z.strictObject({
  namespace: z.string().regex(NAMESPACE_PATTERN, {
    error:
      "must be 3 to 30 characters: lowercase letters, digits and hyphens, starting and ending with a letter or digit",
  }),
  description: optional(chars(0, 500)),
  webhookUrl: optional(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048)),
});
export type RegisterNamespaceInput = z.output<typeof registerNamespaceSchema>;
