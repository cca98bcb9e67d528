import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ROUTE_PATHS } from "./app-fetch";

function routeFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return routeFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`);
    return entry.name === "route.ts" ? [prefix || "/"] : [];
  });
}

it("serves every route handler under app/, including sign-in, dashboard and MCP", () => {
  expect(ROUTE_PATHS).toEqual(routeFiles(path.resolve("app")).sort());
  expect(ROUTE_PATHS).toEqual(
    expect.arrayContaining(["/api/auth/nonce", "/api/dashboard/counts", "/mcp", "/api/namespace/feedback"]),
  );
});
