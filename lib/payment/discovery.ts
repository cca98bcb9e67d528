import "server-only";
import {
  bazaarResourceServerExtension,
  declareDiscoveryExtension,
  isValidIconUrl,
} from "@x402/extensions/bazaar";
import { z } from "zod";
import { env } from "@/lib/env";
import { SERVICE } from "@/lib/schemas/service";
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

/**
 * The service's own metadata on every x402 resource (the Bazaar's `resource.serviceName`, `tags`, `iconUrl`),
 * from one place (lib/schemas/service.ts). The icon only where a catalog may fetch it: never a loopback or IP
 * host, which the Bazaar's rules drop.
 */
export function serviceMetadata(): { serviceName: string; tags: string[]; iconUrl?: string } {
  const iconUrl = new URL("/icon.svg", env().PUBLIC_ORIGIN).toString();
  return {
    serviceName: SERVICE.name,
    tags: [...SERVICE.tags],
    ...(isValidIconUrl(iconUrl) ? { iconUrl } : {}),
  };
}

/**
 * The Bazaar extension of a paid MCP tool's challenge: the tool as MCP resources are described (its name, its
 * arguments' schema and an example), in place of the route's HTTP description.
 */
export function mcpBazaarExtension(tool: {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  example?: unknown;
  output?: unknown;
}): Record<string, unknown> {
  const { $schema: _, ...schema } = tool.inputSchema;
  return declareDiscoveryExtension({
    toolName: tool.name,
    description: tool.description,
    transport: "streamable-http",
    inputSchema: JSON.parse(
      JSON.stringify(schema, (key, value) => (key === "description" ? undefined : value)),
    ),
    ...(tool.example && typeof tool.example === "object"
      ? { example: tool.example as Record<string, unknown> }
      : {}),
    ...(tool.output === undefined ? {} : { output: { example: tool.output } }),
  });
}
