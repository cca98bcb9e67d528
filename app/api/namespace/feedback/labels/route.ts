import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { changeLabels } from "@/lib/domain/feedback/change-labels";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The owner adds and removes labels on one or many items. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS.labels.body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await changeLabels(wallet, input));
});
