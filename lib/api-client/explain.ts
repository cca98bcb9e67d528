import { ApiError } from "./http";

export type Action = "connect" | "sign-in" | "pay" | "load" | "save";

type ErrorLike = {
  code?: unknown;
  name?: unknown;
  shortMessage?: unknown;
  message?: unknown;
  cause?: unknown;
};

function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let current = error as ErrorLike | undefined;
  while (current && typeof current === "object" && out.length < 8) {
    out.push(current);
    current = current.cause as ErrorLike | undefined;
  }
  return out;
}

const text = (errors: ErrorLike[]) =>
  errors.map((e) => `${String(e.shortMessage ?? "")} ${String(e.message ?? "")}`).join(" ");

/** Whether the person said no in their wallet (EIP-1193 code 4001), however deeply wrapped. */
export function isUserRejection(error: unknown): boolean {
  const errors = chain(error);
  return (
    errors.some((e) => e.code === 4001 || e.name === "UserRejectedRequestError") ||
    /user (rejected|denied|cancel)|rejected the request|request rejected/i.test(text(errors))
  );
}

const REJECTED: Record<Action, string> = {
  connect: "You closed the wallet's request, so no wallet was connected.",
  "sign-in": "You declined to sign the message in your wallet, so you are not signed in.",
  pay: "You declined the payment in your wallet. Nothing was paid.",
  load: "The request was cancelled.",
  save: "You declined the request in your wallet. Nothing was changed.",
};

/** What went wrong, in plain words, for the action the person was taking. */
export function explainError(error: unknown, action: Action): string {
  if (isUserRejection(error)) return REJECTED[action];
  if (error instanceof ApiError) {
    if (error.code === "authentication-required") return "Your session has ended. Sign in again to continue.";
    if (error.code === "sign-in-invalid") return `The sign-in was refused: ${error.detail}`;
    return error.detail;
  }
  const message = text(chain(error));
  if (/spendControls/.test(message)) {
    return "The service asked for more than the price you were shown, so your wallet did not pay. Nothing was charged.";
  }
  if (/ProviderNotFound|provider not found/i.test(message)) {
    return "No browser wallet was found. Install a wallet extension such as MetaMask or Rabby, then try again.";
  }
  if (/chain|network/i.test(message) && /switch|mismatch|does not match/i.test(message)) {
    return "Your wallet is on another network. Switch it to the network this service uses and try again.";
  }
  if (/Failed to fetch|NetworkError|Load failed/i.test(message)) {
    return "The service could not be reached. Check your connection and try again.";
  }
  if (/Connect a wallet/i.test(message)) return "Connect a wallet first.";
  const first = chain(error)[0];
  const short = String(first?.shortMessage ?? first?.message ?? "unknown error").slice(0, 200);
  return `Something went wrong: ${short}`;
}

/**
 * Whether asking again may work: the service could not be reached, was busy or failed on its side. A
 * refusal (any other 4xx: not yours, not found, invalid) answers the same every time, so it offers no retry.
 */
export function isRetryable(error: unknown): boolean {
  if (isUserRejection(error)) return true;
  if (!(error instanceof ApiError)) return true;
  return error.status >= 500 || error.status === 408 || error.status === 429;
}
