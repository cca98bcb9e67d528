import { ApiError } from "@/lib/api-client/http";

/** Whether a URL is a chat webhook's, whose path is its credential (anyone holding it can post). */
export function isChatWebhookUrl(url: string): boolean {
  try {
    const { hostname, pathname } = new URL(url);
    return (
      hostname === "hooks.slack.com" ||
      (/(^|\.)discord(app)?\.com$/.test(hostname) && pathname.startsWith("/api/webhooks"))
    );
  } catch {
    return false;
  }
}

/**
 * A URL with its secret part hidden: the origin stays, and the first path segment when more follows, so
 * the owner knows which it is. The dots always stand for something hidden: a URL that is only an origin
 * is shown as it is, and a one-segment path is hidden whole.
 */
export function maskUrl(url: string): string {
  try {
    const { origin, pathname, search, hash } = new URL(url);
    const segments = pathname.split("/").filter(Boolean);
    if (segments.length === 0 && !search && !hash) return origin;
    const shown = segments.length > 1 ? `${segments[0]}/` : "";
    return `${origin}/${shown}${"•".repeat(16)}`;
  } catch {
    return "•".repeat(24);
  }
}

const PUBLIC_ONLY = "Webhooks only go to public servers on the internet.";

/** What is wrong with a URL typed into the form, before it is sent; null when it can be tried. */
export function checkTypedUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "That is not a web address. Enter the full URL, starting with https://.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return "Only web addresses starting with https:// (or http://) can receive webhooks.";
  }
  if (url.username || url.password) return "Leave the user name and password out of the URL.";
  return null;
}

// The service's field messages for `url` (lib/webhooks), each as a sentence an owner can act on.
const SENTENCES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^is not a URL/, () => "That is not a web address. Enter the full URL, starting with https://."],
  [
    /must be an http\(s\) URL/,
    () => "Only web addresses starting with https:// (or http://) can receive webhooks.",
  ],
  [/must not carry credentials/, () => "Leave the user name and password out of the URL."],
  [/^points at an? (.+) address/, (m) => `This address points at a ${m[1]} address. ${PUBLIC_ONLY}`],
  [
    /^(\S+) resolves to an? (.+) address \((.+)\)/,
    (m) => `${m[1]} leads to a ${m[2]} address (${m[3]}). ${PUBLIC_ONLY}`,
  ],
  [
    /host that does not exist \(DNS: no such host (.+)\)/,
    (m) => `${m[1]} does not exist: DNS has no such host. Check the address for a typo.`,
  ],
  [
    /host with no address \(DNS: (\S+)/,
    (m) => `${m[1]} exists but has no address to send to. Check the address.`,
  ],
  [
    /DNS lookup of (\S+) timed out after (\d+) s/,
    (m) =>
      `${m[1]} could not be checked: its DNS lookup took longer than ${m[2]} s. Nothing was saved; try again.`,
  ],
  [
    /^could not be checked: (.+)/,
    (m) => `This address could not be checked (${m[1]}). Nothing was saved; try again.`,
  ],
  [/(?:at most |<=)(\d+)/, (m) => `That URL is too long: at most ${m[1]} characters.`],
];

/** The service's refusal of a URL as a sentence for the form; null when it is not about the URL. */
export function urlProblemOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const problem = error.fields.find((f) => f.field === "url");
  if (!problem) return null;
  for (const [pattern, say] of SENTENCES) {
    const match = problem.message.match(pattern);
    if (match) return say(match);
  }
  return `This URL ${problem.message}.`;
}
