import { clip, escapeDiscord, linesWithin, neutraliseMentions } from "./chat-text";
import type { ChatMessage } from "./describe-event";

// Discord's limits: content 2,000 characters; an embed's title 256, description 4,096, at most 25
// fields of name 256 and value 1,024, footer 2,048, and 6,000 characters in all of its text.
const CONTENT_MAX = 2000;
const DESCRIPTION_MAX = 4096;
const EMBED_TOTAL_MAX = 6000;

type Embed = {
  title?: string;
  url?: string;
  description?: string;
  color: number;
  fields: { name: string; value: string; inline: boolean }[];
  footer: { text: string };
  timestamp?: string;
};

/** User text as Discord shows it: markdown escaped, @everyone and @here broken, within `max`. */
const md = (text: string, max: number) => clip(neutraliseMentions(text), max, escapeDiscord);

/**
 * A Discord webhook message: {content, embeds, allowed_mentions}. Mentions are never parsed (no
 * ping, whatever the text says), user text is escaped, and every part is within Discord's limits.
 */
export function discordMessage(m: ChatMessage) {
  const embed: Embed = {
    ...(m.title !== null ? { title: md(m.title, 256) } : {}),
    ...(m.title !== null && m.url ? { url: m.url } : {}),
    ...(m.links.length > 0 ? { description: linkList(m.links) } : {}),
    color: m.color,
    fields: m.fields.slice(0, 25).map((f) => ({
      name: md(f.name, 256),
      value: md(f.value, 1024) || "—",
      inline: f.value.length <= 40,
    })),
    // A footer shows no markdown: escaping would show its backslashes.
    footer: { text: clip(neutraliseMentions(m.footer), 2048) },
    ...(m.at ? { timestamp: m.at } : {}),
  };
  return {
    content: md(m.headline, CONTENT_MAX),
    embeds: [withinTotal(embed)],
    allowed_mentions: { parse: [] as string[] },
  };
}

/**
 * One masked link a line, the titles given an equal share of the description's 4,096 characters
 * (at least a readable part); lines that do not fit make way for "…and N more", never cut.
 */
function linkList(links: ChatMessage["links"]): string {
  const share = Math.floor(DESCRIPTION_MAX / links.length) - 1;
  const lines = links.map((l) => {
    const note = l.note ? ` — ${md(l.note, 200)}` : "";
    return `[${md(l.text, Math.max(40, share - l.url.length - note.length - 4))}](${l.url})${note}`;
  });
  return linesWithin(lines, DESCRIPTION_MAX);
}

const textOf = (e: Embed) =>
  (e.title?.length ?? 0) +
  (e.description?.length ?? 0) +
  e.footer.text.length +
  e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);

/** Drops fields from the end, then whole links from the description, until the embed fits 6,000. */
function withinTotal(embed: Embed): Embed {
  const e = { ...embed, fields: [...embed.fields] };
  while (textOf(e) > EMBED_TOTAL_MAX && e.fields.length > 0) e.fields.pop();
  while (textOf(e) > EMBED_TOTAL_MAX && e.description) {
    e.description = e.description.includes("\n")
      ? e.description.slice(0, e.description.lastIndexOf("\n"))
      : undefined;
  }
  return e;
}
