import { clip, escapeSlack as esc, linesWithin } from "./chat-text";
import type { ChatMessage } from "./describe-event";

// Slack's block limits: a section's text at most 3,000 characters, at most 10 fields of at most
// 2,000 each, a context element's text at most 3,000. The notification `text` is kept as short.
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;
const FIELDS_MAX = 10;

type TextObject = { type: "mrkdwn"; text: string };
type Block =
  | { type: "section"; text: TextObject }
  | { type: "section"; fields: TextObject[] }
  | { type: "context"; elements: TextObject[] };

/** A Slack incoming-webhook message: {text, blocks}; all user text escaped, every part within limits. */
export function slackMessage(m: ChatMessage): { text: string; blocks: Block[] } {
  const mrkdwn = (text: string): TextObject => ({ type: "mrkdwn", text });
  const headline = `*${clip(m.headline, 300, esc)}*`;
  const title =
    m.title === null
      ? null
      : m.url
        ? `<${clip(m.url, 1000, esc)}|${clip(m.title, 500, esc)}>`
        : clip(m.title, 500, esc);
  const blocks: Block[] = [{ type: "section", text: mrkdwn(title ? `${headline}\n${title}` : headline) }];
  if (m.fields.length > 0) {
    blocks.push({
      type: "section",
      fields: m.fields.slice(0, FIELDS_MAX).map((f) => {
        const name = `*${clip(f.name, 100, esc)}*\n`;
        return mrkdwn(name + clip(f.value, FIELD_MAX - name.length, esc));
      }),
    });
  }
  if (m.links.length > 0) {
    // An equal share of the section each for the titles (at least a readable part of one); the
    // lines that do not fit then make way for "…and N more", so no link is ever cut.
    const share = Math.floor((SECTION_MAX - (m.links.length - 1)) / m.links.length);
    const lines = m.links.map((l) => {
      const url = clip(l.url, 1000, esc);
      const note = l.note ? ` — ${clip(l.note, 200, esc)}` : "";
      return `• <${url}|${clip(l.text, Math.max(40, share - url.length - note.length - 6), esc)}>${note}`;
    });
    blocks.push({ type: "section", text: mrkdwn(linesWithin(lines, SECTION_MAX)) });
  }
  blocks.push({ type: "context", elements: [mrkdwn(clip(m.footer, 300, esc))] });
  // The notification and fallback text; Slack also shows it where blocks cannot be.
  const text = clip(m.title === null ? m.headline : `${m.headline}: ${m.title}`, SECTION_MAX, esc);
  return { text, blocks };
}
