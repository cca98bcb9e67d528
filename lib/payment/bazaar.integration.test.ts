import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { SERVICE } from "@/lib/schemas/service";
import { APP, appFetch } from "@/testing/app-fetch";

// Where agents search: every x402 resource names the service (the Bazaar's serviceName and tags), an HTTP
// route is described as a route, and a paid MCP tool as the MCP tool it is.
describe("the Bazaar metadata of a 402", () => {
  it("names the service on the resource of every paid route", async () => {
    for (const path of ["feedback", "register", "feedback/follow-up", "resolve"]) {
      const res = await appFetch(`${APP}/api/namespace/${path}`, { method: "POST" });
      expect(res.status, path).toBe(402);
      const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
      expect(required.resource, path).toMatchObject({ serviceName: SERVICE.name, tags: [...SERVICE.tags] });
      // The devnet's origin is localhost, whose icon no catalog may fetch: the Bazaar's rules leave it out.
      expect(required.resource, path).not.toHaveProperty("iconUrl");
      expect(required.extensions?.bazaar, path).toMatchObject({
        info: { input: { type: "http", method: "POST" } },
      });
    }
  });

  it("describes a paid MCP tool as an MCP tool: its name and its arguments", async () => {
    const client = new Client({ name: "bazaar", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${APP}/mcp`), { fetch: appFetch }));
    const asked = (await client.callTool({
      name: "submit_feedback",
      arguments: {
        namespace: "bazaar-check",
        type: "bug",
        title: "Crash",
        description: "It crashes on start.",
      },
    })) as {
      isError?: boolean;
      structuredContent?: { extensions?: Record<string, unknown>; resource?: unknown };
    };
    expect(asked.isError).toBe(true);
    const bazaar = asked.structuredContent?.extensions?.bazaar as {
      info: { input: Record<string, unknown> };
    };
    expect(bazaar.info.input).toMatchObject({
      type: "mcp",
      toolName: "submit_feedback",
      transport: "streamable-http",
    });
    expect(Object.keys((bazaar.info.input.inputSchema as { properties: object }).properties)).toContain(
      "title",
    );
    expect(asked.structuredContent?.resource).toMatchObject({ serviceName: SERVICE.name });
  });
});
