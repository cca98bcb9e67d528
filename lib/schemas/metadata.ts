import { z } from "zod";
import { badCharacters } from "./text";

/** Caps on the free-form `metadata` object (contract 2.1 leaves it open; these keep it storable). */
export const METADATA_LIMITS = {
  /** Nesting of objects and arrays, the top-level object counting as 1. */
  maxDepth: 8,
  /** Object keys counted across every level. */
  maxKeys: 200,
  /** UTF-8 bytes of the object serialized as JSON. */
  maxBytes: 16 * 1024,
  /** Length of one key, in characters. */
  maxKeyLength: 200,
} as const;

// Keys that reach an object's prototype when copied by assignment: refused at any depth.
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

type Issue = { path: PropertyKey[]; message: string };

/** Every reason `value` (the raw metadata, before any copy) is refused, each with its path. */
function metadataIssues(value: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  let keys = 0;
  let tooDeep = false;
  // Iterative walk: a hostile body can nest far deeper than the call stack.
  const stack: Array<{ node: unknown; path: PropertyKey[]; depth: number }> = [
    { node: value, path: [], depth: 1 },
  ];
  while (stack.length > 0 && issues.length < 20) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node === "string") {
      const bad = badCharacters(node, "text");
      if (bad) issues.push({ path, message: bad });
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (depth > METADATA_LIMITS.maxDepth) {
      issues.push({ path, message: `nests deeper than ${METADATA_LIMITS.maxDepth} levels` });
      tooDeep = true;
      continue;
    }
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries())
        stack.push({ node: child, path: [...path, i], depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(node)) {
      keys += 1;
      const at = [...path, key];
      if (FORBIDDEN_KEYS.has(key)) issues.push({ path: at, message: `"${key}" is not allowed as a key` });
      else if ([...key].length > METADATA_LIMITS.maxKeyLength)
        issues.push({ path: at, message: `key is longer than ${METADATA_LIMITS.maxKeyLength} characters` });
      else {
        const badKey = badCharacters(key, "line");
        if (badKey) issues.push({ path, message: `key ${JSON.stringify(key)}: ${badKey}` });
      }
      stack.push({ node: (node as Record<string, unknown>)[key], path: at, depth: depth + 1 });
    }
  }
  if (keys > METADATA_LIMITS.maxKeys) {
    issues.push({
      path: [],
      message: `must have at most ${METADATA_LIMITS.maxKeys} keys in all (got ${keys})`,
    });
  }
  // Serializing is recursive: only done once the depth is known to be small.
  const bytes = tooDeep ? 0 : Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
  if (bytes > METADATA_LIMITS.maxBytes) {
    issues.push({
      path: [],
      message: `must be at most ${METADATA_LIMITS.maxBytes} bytes as JSON (got ${bytes})`,
    });
  }
  return issues;
}

/**
 * The `metadata` field: any JSON object within METADATA_LIMITS. Checked on the raw input, before zod
 * copies it, since a copy by assignment silently drops a `__proto__` key.
 */
export const metadataSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: "must be a JSON object" });
      return;
    }
    for (const issue of metadataIssues(value as Record<string, unknown>)) {
      ctx.addIssue({ code: "custom", ...issue });
    }
  })
  .pipe(z.record(z.string(), z.unknown()))
  .meta({
    type: "object",
    additionalProperties: true,
    maxProperties: METADATA_LIMITS.maxKeys,
    description: `Any JSON object: at most ${METADATA_LIMITS.maxDepth} levels deep, ${METADATA_LIMITS.maxKeys} keys in all and ${METADATA_LIMITS.maxBytes} bytes as JSON; no "__proto__", "constructor" or "prototype" keys, no NUL, control characters (other than tab and line breaks in values) or unpaired surrogates. Top-level http(s) URL values become the item's domain targets.`,
  });
