import "server-only";
import { env } from "@/lib/env";
import { validationError } from "@/lib/http/errors";
import { checkWebhookUrl } from "./address-policy";

/** Refuses (400, naming `field`) a webhook URL that is not http(s) or names a refused address literally. */
export function assertWebhookUrlAllowed(url: string | null, field: string): void {
  if (url === null) return;
  const problem = checkWebhookUrl(url, { allowLoopback: env().WEBHOOKS_ALLOW_LOOPBACK });
  if (problem) throw validationError([{ field, message: problem }]);
}
