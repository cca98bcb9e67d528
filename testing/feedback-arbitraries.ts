import fc from "fast-check";
import { FEEDBACK_TYPES, SEVERITIES } from "@/lib/schemas/feedback";
import { METADATA_LIMITS } from "@/lib/schemas/metadata";

/** One acceptable code point: mostly ASCII, sometimes anything outside controls and surrogates. */
const codePoint = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xd7ff }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xe000, max: 0x10ffff }) },
);
const lineChar = codePoint.map((cp) => String.fromCodePoint(cp));
const textChar = fc.oneof({ weight: 12, arbitrary: lineChar }, fc.constantFrom("\n", "\r", "\t"));

/** A single-line string of `min` to `max` code points. */
const lineOf = (min: number, max: number) => fc.string({ unit: lineChar, minLength: min, maxLength: max });
/** Multi-line text of `min` to `max` code points. */
const textOf = (min: number, max: number) => fc.string({ unit: textChar, minLength: min, maxLength: max });

const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,11}$/);

/** A JSON value within the metadata caps: 3 levels of at most 4 members, short strings. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    textOf(0, 10),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

const metadataArb = fc.dictionary(key, jsonValue, { maxKeys: 4, noNullPrototype: true });

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

/** Valid submit bodies, every limit of contract 2.1 respected; optional fields absent, null or set. */
export const validSubmitBody = fc.record(
  {
    namespace: lineOf(3, 30),
    type: fc.constantFrom(...FEEDBACK_TYPES),
    title: lineOf(3, 200),
    description: textOf(10, 400),
    severity: maybe(fc.constantFrom(...SEVERITIES)),
    steps: maybe(fc.array(textOf(0, 60), { maxLength: 20 })),
    expected: maybe(textOf(0, 200)),
    actual: maybe(textOf(0, 200)),
    context: maybe(textOf(0, 600)),
    metadata: maybe(metadataArb),
  },
  { requiredKeys: ["namespace", "type", "title", "description"] },
);
export type SubmitBody = Record<string, unknown>;

/** What parsing a valid body yields: every optional field present, absent ones as null. */
export function normalised(body: SubmitBody) {
  const optional = ["severity", "steps", "expected", "actual", "context", "metadata"];
  return { ...Object.fromEntries(optional.map((f) => [f, null])), ...body };
}

const STRING_FIELDS = {
  namespace: { min: 3, max: 30, line: true },
  title: { min: 3, max: 200, line: true },
  description: { min: 10, max: 10_000, line: false },
  expected: { min: 0, max: 2000, line: false },
  actual: { min: 0, max: 2000, line: false },
  context: { min: 0, max: 50_000, line: false },
} as const;
type StringField = keyof typeof STRING_FIELDS;
const stringField = fc.constantFrom(...(Object.keys(STRING_FIELDS) as StringField[]));

const BAD_IN_TEXT = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\u000b",
  "\u000c",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009f",
];
const BAD_IN_LINE = [...BAD_IN_TEXT, "\n", "\r", "\t"];
const LONE = ["\ud800", "\udbff", "\udc00", "\udfff"];

/** Inserts `bad` at a code-point boundary of `value`, so it never pairs with a neighbour. */
function insertAt(value: string, bad: string, at: number): string {
  const cps = [...value];
  const i = at % (cps.length + 1);
  return [...cps.slice(0, i), bad, ...cps.slice(i)].join("");
}

/** A JSON object literal with an own `key` property, whatever the key (even "__proto__"). */
function withOwnKey(key: string, value: unknown): Record<string, unknown> {
  return JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`);
}

function nested(depth: number, leaf: unknown): unknown {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = i % 2 ? [node] : { d: node };
  return node;
}

/** A mutation of a valid body that must be refused, and the field the refusal must name. */
export type Mutation = { body: SubmitBody; field: string; what: string };

/** Invalid bodies: one valid body with exactly one thing wrong, and the field that names it. */
export const invalidSubmitBody: fc.Arbitrary<Mutation> = fc
  .tuple(validSubmitBody, fc.nat(), fc.nat({ max: 10_000 }))
  .chain(([body, n, pick]) => {
    const set = (field: string, value: unknown, what: string, named = field) =>
      fc.constant({ body: { ...body, [field]: value }, field: named, what });
    const options: Array<fc.Arbitrary<Mutation>> = [
      stringField.chain((f) =>
        lineOf(STRING_FIELDS[f].max + 1, STRING_FIELDS[f].max + 3).chain((v) => set(f, v, "too long")),
      ),
      fc
        .constantFrom<StringField>("namespace", "title", "description")
        .chain((f) => lineOf(0, STRING_FIELDS[f].min - 1).chain((v) => set(f, v, "too short"))),
      stringField.chain((f) =>
        fc.constantFrom(42, true, ["x"], { x: 1 }).chain((v) => set(f, v, "wrong type")),
      ),
      stringField.chain((f) => {
        const bad = STRING_FIELDS[f].line ? BAD_IN_LINE : BAD_IN_TEXT;
        const base = typeof body[f] === "string" ? (body[f] as string) : "valid text here";
        return fc.constantFrom(...bad).chain((c) => set(f, insertAt(base, c, n), `control ${codeOf(c)}`));
      }),
      stringField.chain((f) => {
        const base = typeof body[f] === "string" ? (body[f] as string) : "valid text here";
        return fc.constantFrom(...LONE).chain((c) => set(f, insertAt(base, c, n), "lone surrogate"));
      }),
      fc
        .constantFrom(...BAD_IN_TEXT, ...LONE)
        .chain((c) => set("steps", ["ok", `a${c}b`], "bad step", "steps.1")),
      set("steps", Array(21).fill("step"), "21 steps"),
      set("steps", ["x".repeat(501)], "long step", "steps.0"),
      set("type", "question", "unknown type"),
      set("severity", "urgent", "unknown severity"),
      fc.constantFrom(["a"], "text", 7).chain((v) => set("metadata", v, "metadata not an object")),
      fc
        .integer({ min: METADATA_LIMITS.maxDepth, max: METADATA_LIMITS.maxDepth + 4 })
        .chain((d) => set("metadata", { a: nested(d, 1) }, `depth ${d + 1}`, "metadata.a")),
      fc
        .constantFrom("__proto__", "constructor", "prototype")
        .chain((k) => set("metadata", { a: withOwnKey(k, { x: 1 }) }, `key ${k}`, `metadata.a.${k}`)),
      fc
        .constantFrom("__proto__", "constructor", "prototype")
        .chain((k) => set("metadata", withOwnKey(k, 1), `top key ${k}`, `metadata.${k}`)),
      set(
        "metadata",
        Object.fromEntries(Array.from({ length: METADATA_LIMITS.maxKeys + 1 }, (_, i) => [`k${i}`, i])),
        "too many keys",
      ),
      set("metadata", { big: "x".repeat(METADATA_LIMITS.maxBytes) }, "too large"),
      fc
        .constantFrom("\u0000", "\ud800", "\u001b")
        .chain((c) => set("metadata", { a: [`v${c}`] }, "bad metadata string", "metadata.a.0")),
      fc
        .stringMatching(/^[a-z]{1,12}$/)
        .filter((k) => !(k in normalised(body)))
        .map((k) => ({ body: { ...body, [k]: "x" }, field: k, what: "unknown key" })),
    ];
    return options[pick % options.length]!;
  });

const codeOf = (c: string) => `U+${c.codePointAt(0)!.toString(16).padStart(4, "0")}`;
