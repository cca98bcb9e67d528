import fc from "fast-check";

/** A change to a decoded credential, and how to describe it in a failure. */
export type Mutation = { describe: string; apply: (value: unknown) => unknown };

type Path = (string | number)[];

function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [prefix];
  const children = Object.entries(value).flatMap(([k, v]) =>
    paths(v, [...prefix, Array.isArray(value) ? Number(k) : k]),
  );
  return prefix.length ? [prefix, ...children] : children;
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);
}

function edit(
  value: unknown,
  path: Path,
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
) {
  const copy = structuredClone(value);
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  change(parent, path.at(-1)!);
  return copy;
}

const anyValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 12 }),
  fc.constant({}),
  fc.constant([]),
  fc.constantFrom(
    "",
    "-1",
    "1e4",
    "0x",
    "0x00",
    "9".repeat(80),
    "1.5",
    " 10000",
    "10000 ",
    "0x".padEnd(66, "g"),
  ),
);

/** A change that keeps a string's kind (hex stays hex, digits stay digits) and changes its meaning. */
function tweak(text: string, seed: number): string {
  if (/^0x[0-9a-fA-F]+$/.test(text) && text.length > 2) {
    const i = 2 + (seed % (text.length - 2));
    const digit = Number.parseInt(text[i]!, 16);
    const other = ((digit + 1 + (seed % 15)) % 16).toString(16);
    return `${text.slice(0, i)}${other}${text.slice(i + 1)}`;
  }
  if (/^\d+$/.test(text)) {
    const n = BigInt(text);
    return [String(n + 1n), String(n > 0n ? n - 1n : 7n), `0${text}`, `${text}0`][seed % 4]!;
  }
  return [
    `${text}x`,
    text.slice(0, -1),
    `${text.slice(0, 1).toUpperCase() === text.slice(0, 1) ? text.slice(0, 1).toLowerCase() : text.slice(0, 1).toUpperCase()}${text.slice(1)}`,
    ` ${text}`,
  ][seed % 4]!;
}

/**
 * Every kind of change to every field of a decoded credential: replaced by any JSON value, tweaked in
 * kind (a hex digit, a number ±1, a character), deleted, or joined by an unknown field.
 */
export function fieldMutations(original: unknown): fc.Arbitrary<Mutation> {
  const all = paths(original);
  const strings = all.filter((p) => typeof getAt(original, p) === "string");
  const objects = [
    [],
    ...all.filter((p) => {
      const v = getAt(original, p);
      return v !== null && typeof v === "object" && !Array.isArray(v);
    }),
  ];
  const name = (p: Path) => p.join(".") || "(root)";
  return fc.oneof(
    fc.record({ path: fc.constantFrom(...all), value: anyValue }).map(({ path, value }) => ({
      describe: `${name(path)} = ${JSON.stringify(value)}`,
      apply: (v: unknown) =>
        edit(v, path, (parent, key) => {
          parent[key] = value;
        }),
    })),
    fc.record({ path: fc.constantFrom(...strings), seed: fc.nat() }).map(({ path, seed }) => ({
      describe: `${name(path)} tweaked (${seed})`,
      apply: (v: unknown) =>
        edit(v, path, (parent, key) => {
          parent[key] = tweak(String(parent[key]), seed);
        }),
    })),
    fc.constantFrom(...all).map((path) => ({
      describe: `${name(path)} deleted`,
      apply: (v: unknown) =>
        edit(v, path, (parent, key) => {
          delete parent[key];
        }),
    })),
    fc
      .record({
        path: fc.constantFrom(...objects),
        key: fc.constantFrom("extra", "x", "__proto__", "amount"),
        value: anyValue,
      })
      .map(({ path, key, value }) => ({
        describe: `${name([...path, key])} added = ${JSON.stringify(value)}`,
        apply: (v: unknown) => {
          const copy = structuredClone(v);
          const target = (path.length ? getAt(copy, path) : copy) as Record<string, unknown>;
          Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
          return copy;
        },
      })),
  );
}

/**
 * The credential as a comparable string, with what does not change its meaning set aside: hex case,
 * and the two spellings of an ECDSA signature's last byte (v = 27/28, or its parity 0/1).
 */
export function meaning(value: unknown): string {
  return JSON.stringify(value, (key, v) => {
    if (typeof v !== "string" || !/^0x[0-9a-fA-F]*$/.test(v)) return v;
    const hex = v.toLowerCase();
    if (key === "signature" && hex.length === 132) {
      const parity = hex.slice(130);
      return `${hex.slice(0, 130)}${parity === "00" ? "1b" : parity === "01" ? "1c" : parity}`;
    }
    return hex;
  });
}

/** Ways a header's encoding can be broken, whatever its content. */
export function encodingMutations(
  encode: (json: string) => string,
): fc.Arbitrary<{ describe: string; header: (json: string) => string }> {
  return fc.constantFrom(
    { describe: "truncated", header: (json: string) => encode(json).slice(0, -5) },
    { describe: "garbage appended", header: (json: string) => `${encode(json)}!!` },
    {
      describe: "a space inside",
      header: (json: string) => {
        const h = encode(json);
        return `${h.slice(0, 20)} ${h.slice(20)}`;
      },
    },
    { describe: "JSON with trailing text", header: (json: string) => encode(`${json}x`) },
    { describe: "encoded twice", header: (json: string) => encode(encode(json)) },
    { describe: "not JSON", header: () => encode("not json") },
    { describe: "a JSON string", header: (json: string) => encode(JSON.stringify(json)) },
    { describe: "empty", header: () => "" },
  );
}
