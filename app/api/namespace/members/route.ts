import { limitedSignedRead, limitedSignIn } from "@/lib/auth/limited-sign-in";
import { addMember } from "@/lib/domain/members/add-member";
import { listMembers } from "@/lib/domain/members/list-members";
import { removeMember } from "@/lib/domain/members/remove-member";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput, queryOf } from "@/lib/http/validate";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

/** The namespace's owner, members and pending transfer, to the owner and every member. */
export const GET = handle(async (request) => {
  const { namespace } = parseInput(OPERATIONS.members.query, queryOf(request));
  return json(await limitedSignedRead(request, (wallet) => listMembers(wallet, namespace)));
});

/** Adds a member with a role, or changes a member's role. */
export const POST = handle(async (request) => {
  const input = parseInput(OPERATIONS["member-add"].body, await readJsonBody(request));
  return json(await addMember(await limitedSignIn(request), input));
});

/** Removes a member, from its very next call. */
export const DELETE = handle(async (request) => {
  const input = parseInput(OPERATIONS["member-remove"].body, await readJsonBody(request));
  return json(await removeMember(await limitedSignIn(request), input));
});
