import { api } from "../http";
import type { SessionView, SignInChallenge } from "../types";

/** The browser's current session, or null when signed out. */
export async function fetchSession(): Promise<SessionView | null> {
  return (await api<{ session: SessionView | null }>("/api/auth/session")).session;
}

/** A single-use sign-in challenge to build the SIWE message from. */
export function fetchSignInChallenge(): Promise<SignInChallenge> {
  return api<SignInChallenge>("/api/auth/nonce");
}

/** Trades a signed SIWE message for a session cookie. */
export async function postSignIn(body: { message: string; signature: string }): Promise<SessionView> {
  return (
    await api<{ session: SessionView }>("/api/auth/session", { method: "POST", body: JSON.stringify(body) })
  ).session;
}

/** Ends the session on the server. */
export async function deleteSession(): Promise<void> {
  await api("/api/auth/session", { method: "DELETE" });
}
