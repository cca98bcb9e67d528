import { currentSession, signIn, signOut } from "@/lib/auth/browser-session";
import { readJsonBody } from "@/lib/http/body";
import { handle, json } from "@/lib/http/handler";
import { parseInput } from "@/lib/http/validate";
import { signInSchema } from "@/lib/schemas/session";

/** Who the session cookie signs in, or `{ session: null }`. */
export const GET = handle(async (request) =>
  json({ session: await currentSession(request.headers.get("cookie")) }),
);

/** Verifies a signed SIWE message and opens a session: an HttpOnly, SameSite=Strict cookie. */
export const POST = handle(async (request) => {
  const input = parseInput(signInSchema, await readJsonBody(request, { maxBytes: 32 * 1024 }));
  const { session, setCookie } = await signIn(request, input);
  return json({ session }, { headers: { "set-cookie": setCookie } });
});

/** Ends the session on the server and clears the cookie. */
export const DELETE = handle(async (request) => {
  const { setCookie } = await signOut(request);
  return json({ session: null }, { headers: { "set-cookie": setCookie } });
});
