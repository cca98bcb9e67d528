import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { acceptTransfer } from "@/lib/domain/members/accept-transfer";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The wallet proposed as the new owner accepts, and owns the namespace from now on. */
export const POST = handle(async (request) => {
  const { namespace } = parseInput(OPERATIONS["transfer-accept"].body, await readJsonBody(request));
  return json(await acceptTransfer(await limitedSignIn(request), namespace));
});
