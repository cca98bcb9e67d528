import { readdirSync, readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { formatUsd } from "@/lib/money";
import { PAID_OPERATIONS } from "@/lib/schemas/operations/catalog";
import { fixedPrice } from "@/lib/schemas/operations/operation";
import { APP, appFetch } from "@/testing/app-fetch";

// A price is declared once, in the catalogue: every document that names one must name one it charges.
const charged = new Set([
  "0",
  ...PAID_OPERATIONS.flatMap((op) => {
    const fixed = fixedPrice(op);
    return [formatUsd(op.maxPrice), ...(fixed === null ? [] : [formatUsd(fixed)])];
  }),
]);

/** Every amount written as "<number> USD" in a text. */
const amountsIn = (text: string) => [...text.matchAll(/(?<![\w.])(\d+(?:\.\d+)?) USD\b/g)].map((m) => m[1]!);

async function served(): Promise<Record<string, string>> {
  const get = async (path: string) => (await appFetch(`${APP}${path}`)).text();
  const client = new Client({ name: "prices", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${APP}/mcp`), { fetch: appFetch }));
  const tools = JSON.stringify(await client.listTools());
  await client.close();
  return {
    "/openapi.json": await get("/openapi.json"),
    "/llms.txt": await get("/llms.txt"),
    "/.well-known/x402": await get("/.well-known/x402"),
    "MCP tools/list": tools,
  };
}

function written(): Record<string, string> {
  const files = ["README.md", "BENCHMARKS.md", ...readdirSync("docs").map((f) => `docs/${f}`)];
  return Object.fromEntries(files.filter((f) => f.endsWith(".md")).map((f) => [f, readFileSync(f, "utf8")]));
}

describe("prices in documents", () => {
  it("every price a served or written document names is one the catalogue charges", async () => {
    const documents = { ...(await served()), ...written() };
    for (const [name, text] of Object.entries(documents)) {
      for (const amount of amountsIn(text)) {
        expect(charged, `${name} names ${amount} USD`).toContain(amount);
      }
    }
    // The generated documents do name the prices (the check above is not vacuous).
    expect(amountsIn(documents["/llms.txt"]!)).toEqual(
      expect.arrayContaining([...charged].filter((a) => a !== "0")),
    );
  });
});
