import "server-only";
import { env } from "@/lib/env";
import { validationError } from "@/lib/http/errors";
import { checkWebhookUrl } from "./address-policy";
import { DnsTimeout, HostRefused, pinAddress } from "./resolve-host";

/** How long saving waits for the host's DNS answers before refusing to save. */
export const SAVE_DNS_TIMEOUT_MS = 5_000;

/** Refuses (400, naming `field`) a webhook URL that is not http(s) or names a refused address literally. */
export function assertWebhookUrlAllowed(url: string | null, field: string): void {
  if (url === null) return;
  const problem = checkWebhookUrl(url, { allowLoopback: env().WEBHOOKS_ALLOW_LOOPBACK });
  if (problem) throw validationError([{ field, message: problem }]);
}

/**
 * Refuses (400, naming `field`) a webhook URL whose host does not resolve, resolves to a refused
 * address, or does not answer within SAVE_DNS_TIMEOUT_MS: the same resolver and address policy as
 * a send, so a URL saved is one the worker would send to, as its DNS stands now.
 */
export async function assertWebhookHostResolves(url: string, field: string): Promise<void> {
  const host = new URL(url).hostname;
  const signal = AbortSignal.timeout(SAVE_DNS_TIMEOUT_MS);
  try {
    await pinAddress(new URL(url), { allowLoopback: env().WEBHOOKS_ALLOW_LOOPBACK }, signal);
  } catch (error) {
    if (error instanceof DnsTimeout) {
      const seconds = SAVE_DNS_TIMEOUT_MS / 1000;
      throw validationError([
        { field, message: `could not be checked: the DNS lookup of ${host} timed out after ${seconds} s` },
      ]);
    }
    if (error instanceof HostRefused) throw validationError([{ field, message: refusal(error, host) }]);
    throw error;
  }
}

function refusal(error: HostRefused, host: string): string {
  switch (error.kind) {
    case "no-such-host":
      return `names a host that does not exist (DNS: no such host ${host})`;
    case "no-address":
      return `names a host with no address (DNS: ${host} has no A or AAAA record)`;
    case "dns-error":
      return `could not be checked: ${error.message}`;
    case "address-refused":
      return error.message;
  }
}

/**
 * A reporter's callback URL, before any charge: the owners' webhook policy (http(s), no private, loopback
 * or metadata address in any spelling, and every address its host resolves to allowed), as a 400 naming
 * `callbackUrl`. Nothing to check without one. With `resolve` false (an unpaid first ask) only its form is
 * checked: its host is resolved for a payer alone, so a stranger's free 402 never waits on a slow DNS.
 */
export async function assertCallbackAllowed(url: string | null, { resolve = true } = {}): Promise<void> {
  if (url === null) return;
  assertWebhookUrlAllowed(url, "callbackUrl");
  if (resolve) await assertWebhookHostResolves(url, "callbackUrl");
}
