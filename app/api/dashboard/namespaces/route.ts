import { limitedSignIn } from "@/lib/auth/limited-sign-in";
import { listOwnedNamespaces } from "@/lib/domain/namespace/list-owned-namespaces";
import { handle, json } from "@/lib/http/handler";

/** The signed-in wallet's namespaces with their open (unresolved) counts. */
export const GET = handle(async (request) => {
  const wallet = await limitedSignIn(request);
  return json(await listOwnedNamespaces(wallet));
});
