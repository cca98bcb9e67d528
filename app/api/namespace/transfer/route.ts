import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { cancelTransfer } from "@/lib/domain/members/cancel-transfer";
import { proposeTransfer } from "@/lib/domain/members/propose-transfer";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The owner proposes a new owner, replacing any proposal still pending. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS.transfer.body, await readJsonBody(request));
  return json(await proposeTransfer(await limitedSignIn(request), input));
});

/** The owner withdraws the pending transfer. */
export const DELETE = handle(async (request) => {
  const { namespace } = parseInput(OPERATIONS["transfer-cancel"].body, await readJsonBody(request));
  return json(await cancelTransfer(await limitedSignIn(request), namespace));
});
