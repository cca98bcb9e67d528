import { describe, expect, it } from "vitest";
import { APP, appFetch, postJson } from "@/testing/app-fetch";

const expectHardened = (res: Response) => {
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
};

describe("security headers on every API answer", () => {
  it.each([
    ["a 402 sign-in challenge", () => appFetch(`${APP}/api/namespace/list?namespace=acme-app`)],
    [
      "a 402 payment challenge",
      () => appFetch(`${APP}/api/namespace/register`, postJson({ namespace: "acme-sec" })),
    ],
    ["a 400", () => appFetch(`${APP}/api/namespace/feedback`, postJson({ namespace: "\u0000" }))],
    ["a 413", () => appFetch(`${APP}/api/namespace/feedback`, postJson({ context: "x".repeat(300_000) }))],
    ["a 415", () => appFetch(`${APP}/api/namespace/feedback`, { method: "POST", body: "x" })],
    ["the OpenAPI document", () => appFetch(`${APP}/openapi.json`)],
    ["the x402 discovery document", () => appFetch(`${APP}/.well-known/x402`)],
    ["llms.txt", () => appFetch(`${APP}/llms.txt`)],
    ["the liveness probe", () => appFetch(`${APP}/healthz`)],
    ["a refused metrics scrape", () => appFetch(`${APP}/metrics`)],
  ])("%s", async (_, call) => {
    const res = await call();
    expect(res.status).not.toBe(500);
    expectHardened(res);
  });
});
