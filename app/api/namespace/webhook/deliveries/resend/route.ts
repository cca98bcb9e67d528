import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { resendWebhookDelivery } from "@/lib/domain/webhooks/resend-webhook-delivery";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** Queues a failed (or delivered) webhook delivery again, as a new delivery linked to it. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS["webhook-resend"].body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await resendWebhookDelivery(wallet, input), { status: 202 });
});
