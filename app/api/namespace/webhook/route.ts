import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { getWebhook } from "@/lib/domain/webhooks/get-webhook";
import { setWebhookUrl } from "@/lib/domain/webhooks/set-webhook-url";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { updateWebhookSchema, webhookQuerySchema } from "@/lib/schemas/webhook";

/** The owner's webhook URL, signing secret and event list. */
export const GET = handle(async (request) => {
  const query = parseInput(webhookQuerySchema, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await getWebhook(wallet.address, query.namespace));
});

/** Changes or removes the webhook URL. */
export const PATCH = handle(async (request) => {
  const input = parseInput(updateWebhookSchema, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await setWebhookUrl(wallet.address, input));
});
