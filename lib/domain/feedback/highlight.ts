/** A piece of highlighted text: shown as is, marked when it matched the search. */
export type Fragment = { text: string; match: boolean };

// ts_headline marks matches with these: stored text can never hold them (control characters are
// refused on input), so a marker is always one of ours.
export const START = "\u0001";
export const STOP = "\u0002";

/** Splits text marked by ts_headline into fragments. */
function fromMarkers(marked: string): Fragment[] {
  const out: Fragment[] = [];
  for (const [i, part] of marked.split(START).entries()) {
    if (i === 0) {
      if (part) out.push({ text: part, match: false });
      continue;
    }
    const end = part.indexOf(STOP);
    const hit = end < 0 ? part : part.slice(0, end);
    const rest = end < 0 ? "" : part.slice(end + STOP.length);
    if (hit) out.push({ text: hit, match: true });
    if (rest) out.push({ text: rest, match: false });
  }
  return out;
}

/** Marks each case-insensitive literal occurrence of `needle` in `text`. */
function literal(text: string, needle: string): Fragment[] {
  const out: Fragment[] = [];
  const hay = text.toLowerCase();
  const want = needle.toLowerCase();
  let at = 0;
  // Lower-casing can change lengths outside ASCII; then only whole-text fallbacks are safe.
  if (!want || hay.length !== text.length) return [{ text, match: false }];
  for (let i = hay.indexOf(want); i >= 0; i = hay.indexOf(want, at)) {
    if (i > at) out.push({ text: text.slice(at, i), match: false });
    out.push({ text: text.slice(i, i + want.length), match: true });
    at = i + want.length;
  }
  if (at < text.length) out.push({ text: text.slice(at), match: false });
  return out;
}

/**
 * The fragments of a field for a search: the words full-text search matched (stemmed: "crashes"
 * for "crash"), or, when none did, the literal occurrences of the query (a part of a word, a code).
 */
export function highlight(marked: string, query: string): Fragment[] {
  const words = fromMarkers(marked);
  if (words.some((f) => f.match)) return words;
  return literal(words.map((f) => f.text).join(""), query);
}
