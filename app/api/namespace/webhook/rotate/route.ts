import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { rotateWebhookSecret } from "@/lib/domain/webhooks/rotate-webhook-secret";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** Replaces the webhook signing secret. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS["webhook-rotate"].body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await rotateWebhookSecret(wallet, input.namespace));
});
