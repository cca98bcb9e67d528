import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { mergeReports } from "@/lib/domain/feedback/groups";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { mergeSchema } from "@/lib/schemas/triage";

/** The owner files reports under one group of duplicates. */
export const POST = handle(async (request) => {
  const input = parseInput(mergeSchema, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await mergeReports(wallet, input));
});
