import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { getWebhook } from "@/lib/domain/webhooks/get-webhook";
import { updateWebhook } from "@/lib/domain/webhooks/update-webhook";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The owner's webhook URL, signing secret, format, events and digest. */
export const GET = handle(async (request) => {
  const query = parseInput(OPERATIONS.webhook.query, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await getWebhook(wallet, query.namespace));
});

/** Changes the webhook URL (or removes it), format, events or digest. */
export const PATCH = handle(async (request) => {
  const input = parseInput(OPERATIONS["webhook-update"].body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await updateWebhook(wallet, input));
});
