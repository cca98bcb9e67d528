import { z } from "zod";

// The fields of a reporter's callback that the submit and follow-up bodies and answers carry
// (lib/schemas/callback.ts has the rest).

/** A callback URL: http(s), at most 2048 characters; the address policy is checked before any charge. */
export const callbackUrlSchema = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(2048, { error: "must be at most 2048 characters" })
  .meta({
    description:
      "Where the service POSTs signed events about this report (report.status_changed, report.resolved, report.reopened, report.merged). The answer then carries callbackSecret. Private, loopback and metadata addresses are refused before any charge.",
  });

/** The secret that signs every delivery to a callback URL: shown once, in the answer that set the URL. */
export const callbackSecretField = z.string().meta({
  description:
    "Only when a callbackUrl was sent: the Standard Webhooks secret (whsec_…) that signs every delivery to it. Shown once: keep it.",
});
