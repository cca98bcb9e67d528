import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { listKnownIssues, updateKnownIssues } from "@/lib/domain/feedback/known-issues";
import { env } from "@/lib/env";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { clientAddress, enforceLimits } from "@/lib/http/rate-limit";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/**
 * A namespace's published known issues, to anyone, rate limited per address. With view=owner, its owner
 * signs in (a proof or the dashboard's session) and reads the list as it stands, published or not.
 */
export const GET = handle(async (request) => {
  const query = parseInput(OPERATIONS["known-issues"].query, queryOf(request));
  if (query.view === "owner") return json(await listKnownIssues(await limitedSignIn(request), query));
  const ip = clientAddress(request);
  if (ip)
    await enforceLimits([{ key: `ip:${ip}`, limit: env().RATE_LIMIT_ADDRESS_PER_MINUTE, what: "address" }]);
  return json(await listKnownIssues(null, query));
});

/** The owner publishes or withdraws the list, and hides or shows items on it. */
export const PATCH = handle(async (request) => {
  const input = parseInput(OPERATIONS["known-issues-update"].body, await readJsonBody(request));
  const wallet = await limitedSignIn(request);
  return json(await updateKnownIssues(wallet, input));
});
