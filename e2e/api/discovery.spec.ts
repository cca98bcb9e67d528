import { expect, test } from "@playwright/test";
import { APP } from "./fixtures";

// Headers are checked on `next start` itself: next.config.ts and proxy.ts can override what a route sets.
const STRICT = "default-src 'none'; frame-ancestors 'none'";

for (const path of [
  "/openapi.json",
  "/llms.txt",
  "/.well-known/x402",
  "/api/namespace/list?namespace=acme-app",
]) {
  test(`${path} is served with the strict API headers`, async () => {
    const res = await fetch(`${APP}${path}`);
    expect([200, 402]).toContain(res.status);
    expect(res.headers.get("content-security-policy")).toBe(STRICT);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
}

test("the 402 of a paid call names the price, the protocols and the docs", async () => {
  const res = await fetch(`${APP}/api/namespace/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ namespace: "discovery-check" }),
  });
  expect(res.status).toBe(402);
  expect(await res.json()).toMatchObject({
    price: { amount: "1", currency: "USD" },
    protocols: ["x402", "mpp"],
    docs: { guide: `${APP}/llms.txt`, openapi: `${APP}/openapi.json` },
  });
});

test("a request body over the cap is refused with 413", async () => {
  const res = await fetch(`${APP}/api/namespace/feedback`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ context: "x".repeat(300 * 1024) }),
  });
  expect(res.status).toBe(413);
});

test("small JSON answers skip compression; large ones are gzipped", async () => {
  const post = (path: string, body: unknown) =>
    fetch(`${APP}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-encoding": "gzip" },
      body: JSON.stringify(body),
    });
  // A short problem: compressing it would cost more than it saves.
  const small = await post("/api/namespace/feedback", { namespace: "x" });
  expect(small.status).toBe(400);
  expect((await small.text()).length).toBeLessThan(1024);
  expect(small.headers.get("content-encoding")).toBeNull();
  expect(small.headers.get("cache-control")).toBe("no-store, no-transform");
  // The OpenAPI document is tens of KiB.
  const large = await fetch(`${APP}/openapi.json`, { headers: { "accept-encoding": "gzip" } });
  expect(large.status).toBe(200);
  expect(large.headers.get("content-encoding")).toBe("gzip");
  expect((await large.json()).openapi).toMatch(/^3\.1/);
});

test("the site has a favicon and app icons, linked from every page", async () => {
  const ico = await fetch(`${APP}/favicon.ico`);
  expect(ico.status).toBe(200);
  expect(ico.headers.get("content-type")).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  expect((await ico.arrayBuffer()).byteLength).toBeGreaterThan(100);
  const html = await (await fetch(`${APP}/`)).text();
  for (const icon of [
    /<link rel="icon" href="\/favicon\.ico/,
    /<link rel="icon" href="\/icon\.svg/,
    /<link rel="apple-touch-icon" href="\/apple-icon\.png/,
  ]) {
    expect(html).toMatch(icon);
  }
  expect((await fetch(`${APP}/apple-icon.png`)).headers.get("content-type")).toBe("image/png");
});
