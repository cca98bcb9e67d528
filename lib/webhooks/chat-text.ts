/** The mark a shortened text ends with. */
const ELLIPSIS = "…";

/**
 * `raw`, escaped, in at most `max` UTF-16 units (Slack and Discord limits, counted conservatively):
 * cut between code points, never inside an escape, and ended with "…" when cut. `escapeChar` must work
 * character by character.
 */
export function clip(raw: string, max: number, escapeChar: (char: string) => string = (c) => c): string {
  const whole = [...raw].map(escapeChar).join("");
  if (whole.length <= max) return whole;
  let out = "";
  for (const char of raw) {
    const piece = escapeChar(char);
    if (out.length + piece.length + ELLIPSIS.length > max) break;
    out += piece;
  }
  return out + ELLIPSIS;
}

/**
 * Lines joined by newlines within `max` characters: whole lines only, and when some must go, the
 * last line kept says how many ("…and 12 more"), so a list is never cut inside a link.
 */
export function linesWithin(lines: string[], max: number): string {
  const joined = (n: number) =>
    [...lines.slice(0, n), ...(n < lines.length ? [`…and ${lines.length - n} more`] : [])].join("\n");
  let shown = lines.length;
  while (shown > 0 && joined(shown).length > max) shown -= 1;
  return joined(shown);
}

/** Slack mrkdwn: &, < and > as entities, so user text can make no link, mention or channel ping. */
export function escapeSlack(char: string): string {
  return char === "&" ? "&amp;" : char === "<" ? "&lt;" : char === ">" ? "&gt;" : char;
}

// Characters that start Discord markdown: formatting, masked links ([text](url)), and <@id>, <#id>
// or <t:…> tags; a backslash shows them as they are.
const DISCORD_MARKUP = new Set(["\\", "*", "_", "~", "`", "|", "[", "]", "<", ">", "#", "-"]);

/** Discord markdown: each character that could start formatting, a link or a tag is backslash-escaped. */
export function escapeDiscord(char: string): string {
  return DISCORD_MARKUP.has(char) ? `\\${char}` : char;
}

/**
 * Breaks @everyone and @here with a zero-width space. Messages are also sent with allowed_mentions
 * {parse: []}, so nothing pings; this keeps them from even reading as a mention.
 */
export function neutraliseMentions(text: string): string {
  return text.replace(/@(everyone|here)/gi, "@\u200b$1");
}
