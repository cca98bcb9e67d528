import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A new Standard Webhooks signing secret: "whsec_" + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** A delivery id; Standard Webhooks receivers use it (the `webhook-id` header) to drop duplicates. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

/** The three Standard Webhooks headers for `body`, signed with HMAC-SHA256 over id, timestamp and body. */
export function signatureHeaders(
  secret: string,
  id: string,
  body: string,
  at: Date = new Date(),
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": Math.floor(at.getTime() / 1000).toString(),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}
