import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { updateCallback } from "@/lib/domain/feedback/update-callback";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The reporter replaces or removes the callback of its own report. */
export const PATCH = handle(async (request) => {
  const input = parseInput(OPERATIONS.callback.body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await updateCallback(wallet, input));
});
