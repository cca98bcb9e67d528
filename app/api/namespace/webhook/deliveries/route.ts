import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { listWebhookDeliveries } from "@/lib/domain/webhooks/list-webhook-deliveries";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { webhookDeliveriesQuerySchema } from "@/lib/schemas/webhook";

/** The namespace's recent webhook deliveries: status, attempts, last response code and time. */
export const GET = handle(async (request) => {
  const query = parseInput(webhookDeliveriesQuerySchema, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await listWebhookDeliveries(wallet, query));
});
