import "server-only";
import { bazaarResourceServerExtension, declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { z } from "zod";
import type { Charge } from "./types";

// A route's schemas never change, and converting them took a third of a 402's own work: each is converted once.
const compacted = { input: new WeakMap<z.ZodType, string>(), output: new WeakMap<z.ZodType, string>() };

/**
 * A zod schema as a compact JSON Schema: 402 headers must stay small, so descriptions are left out. A
 * fresh copy each time, so nothing a 402 is built from can change what the next one says.
 */
function compact(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  let text = compacted[io].get(schema);
  if (text === undefined) {
    const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    text = JSON.stringify(json, (key, value) => (key === "description" ? undefined : value));
    compacted[io].set(schema, text);
  }
  return JSON.parse(text);
}

/**
 * The x402 Bazaar discovery extension for a charge's 402: the input the route takes and the output it
 * answers, with an example of each, so a catalog can list the route and an agent call it.
 */
export function bazaarExtension(charge: Charge): Record<string, unknown> | undefined {
  if (!charge.discovery) return undefined;
  const { input, output } = charge.discovery;
  const declared = declareDiscoveryExtension({
    bodyType: "json",
    input: input.example as Record<string, unknown>,
    inputSchema: compact(input.schema, "input"),
    output: { example: output.example, schema: compact(output.schema, "output") },
  });
  const path = new URL(charge.resourceUrl).pathname;
  const context = { method: charge.method, adapter: { getPath: () => path } };
  return Object.fromEntries(
    Object.entries(declared).map(([key, value]) => [
      key,
      bazaarResourceServerExtension.enrichDeclaration?.(value, context as never) ?? value,
    ]),
  );
}
