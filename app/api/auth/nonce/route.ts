import { signInChallenge } from "@/lib/auth/browser-session";
import { handle, json } from "@/lib/http/handler";

/** A fresh single-use nonce and the fields the browser's sign-in message must carry. */
export const GET = handle(async (request) => json(await signInChallenge(request)));
