import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { listWebhookDeliveries } from "@/lib/domain/webhooks/list-webhook-deliveries";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The namespace's recent webhook deliveries: status, attempts, last response code and time. */
export const GET = handle(async (request) => {
  const query = parseInput(OPERATIONS["webhook-deliveries"].query, queryOf(request));
  const wallet = await limitedSignIn(request);
  return json(await listWebhookDeliveries(wallet, query));
});
