import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { sendTestWebhook } from "@/lib/domain/webhooks/send-test-webhook";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** Queues a `webhook.test` event to the namespace's webhook URL. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS["webhook-test"].body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await sendTestWebhook(wallet, input.namespace), { status: 202 });
});
