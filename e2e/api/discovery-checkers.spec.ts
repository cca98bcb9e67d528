import { execFile } from "node:child_process";
import { promisify } from "node:util";
import {
  checkEndpointSchema,
  getWarningsForL3,
  getWarningsForMppHeader,
  validatePaymentRequiredDetailed,
} from "@agentcash/discovery";
import { expect, test } from "@playwright/test";
import { validate } from "mppx/validation";
import { APP } from "./fixtures";

// The checkers scanners and registries run, run here on the served documents: what they warn about
// is what an agent's catalog would get wrong about us.
const run = promisify(execFile);
const bin = (name: string) => `node_modules/.bin/${name}`;
const ROUTES = [
  "register",
  "feedback",
  "feedback/follow-up",
  "feedback/confirm",
  "feedback/callback",
  "feedback/status",
  "feedback/merge",
  "feedback/labels",
  "feedback/unmerge",
  "resolve",
  "list",
  "export",
  "status",
  "webhook",
  "webhook/rotate",
  "webhook/test",
  "webhook/deliveries",
  "webhook/deliveries/resend",
  "insights",
  "known-issues",
  "members",
  "transfer",
  "transfer/accept",
];

test("@agentcash/discovery finds every route with its price and protocols, and warns about nothing", async () => {
  const { stdout } = await run(bin("discovery"), ["discover", APP, "--json"], { timeout: 60_000 });
  const found = JSON.parse(stdout);
  expect(found.warnings).toEqual([]);
  const byKey = Object.fromEntries(
    found.resources.map((r: { method: string; path: string }) => [`${r.method} ${r.path}`, r]),
  );
  expect(Object.keys(byKey)).toHaveLength(29);
  expect(byKey["POST /api/namespace/feedback/follow-up"]).toMatchObject({
    authHint: "paid",
    priceHint: "0.01 USD",
  });
  expect(byKey["POST /api/namespace/feedback"]).toMatchObject({
    authHint: "paid",
    priceHint: "0.01 USD",
    protocols: ["x402", "mpp"],
  });
  expect(byKey["POST /api/namespace/register"]).toMatchObject({ authHint: "paid", priceHint: "1 USD" });
  expect(byKey["POST /api/namespace/resolve"]).toMatchObject({
    authHint: "paid",
    priceHint: "0.000001-2 USD",
  });
  expect(byKey["GET /api/namespace/status"]).toMatchObject({ authHint: "siwx" });
  expect(byKey["GET /api/namespace/members"]).toMatchObject({ authHint: "siwx" });
  // Open to anyone; the owner's preview (view=owner) is a parameter of it, not another way in.
  expect(byKey["GET /api/namespace/known-issues"]).toMatchObject({ authHint: "unprotected" });
});

test("@agentcash/discovery check warns about no route, from the document or from the live probe", async () => {
  for (const route of ROUTES) {
    const { stdout } = await run(bin("discovery"), ["check", `${APP}/api/namespace/${route}`, "--json"], {
      timeout: 60_000,
    });
    const checked = JSON.parse(stdout);
    expect(checked.found, route).toBe(true);
    expect(checked.warnings, route).toEqual([]);
  }
});

test("a body-less probe of each paid route gets a 402 a catalog can list: price, both protocols, input and output schemas", async () => {
  for (const route of ["register", "feedback", "feedback/follow-up", "resolve"]) {
    const checked = await checkEndpointSchema({ url: `${APP}/api/namespace/${route}`, probe: true });
    expect(checked.found, route).toBe(true);
    if (!checked.found) continue;
    const post = checked.advisories.find((a) => a.method === "POST")!;
    expect(post, route).toMatchObject({ authMode: "paid" });
    expect(getWarningsForL3(post), route).toEqual([]);
    // One x402 option from PAYMENT-REQUIRED, one MPP option from WWW-Authenticate.
    expect(post.paymentOptions?.map((o) => o.protocol).sort(), route).toEqual(["mpp", "x402"]);
    const x402 = validatePaymentRequiredDetailed(post.paymentRequiredBody);
    expect(x402.issues, route).toEqual([]);
    expect(x402.normalized).toMatchObject({ version: 2, hasInputSchema: true, hasOutputSchema: true });
    expect(getWarningsForMppHeader(post.wwwAuthenticate), route).toEqual([]);
  }
});

test("mppx discover validate accepts the OpenAPI document", async () => {
  const { stdout } = await run(bin("mppx"), ["discover", "validate", `${APP}/openapi.json`], {
    timeout: 60_000,
  });
  expect(stdout).toContain("Discovery document is valid.");
  expect(stdout).not.toMatch(/warning|error/i);
});

test("mppx validate: every check of every paid route passes, with no warning", async () => {
  // Its payment step needs Tempo's public testnet; the devnet's own tests pay through mppx instead.
  const result = await validate({ url: APP, skipPayment: true, interactive: false });
  const notPassed = result.endpoints.flatMap((endpoint) =>
    [...endpoint.challenge, ...endpoint.errorHandling].flatMap((r) =>
      r.severity === "pass"
        ? []
        : [`${endpoint.method} ${endpoint.path}: ${r.severity} ${r.label} ${r.detail ?? ""}`],
    ),
  );
  expect(notPassed).toEqual([]);
  expect(result.discovery.found).toBe(true);
  expect(result.endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
    "POST /api/namespace/feedback",
    "POST /api/namespace/feedback/follow-up",
    "POST /api/namespace/register",
    "POST /api/namespace/resolve",
  ]);
  expect(result.summary).toMatchObject({ failed: 0, warnings: 0 });
  expect(result.summary.passed).toBeGreaterThanOrEqual(56);
});

test("the landing page has a description and an Open Graph card whose image is served", async () => {
  const html = await (await fetch(`${APP}/`)).text();
  const meta = (key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, "&");
  expect(meta("description")).toMatch(/^Agents pay 0\.01 USD to file feedback/);
  expect(meta("og:title")).toMatch(/^Feedback/);
  expect(meta("og:description")).toBe(meta("description"));
  expect(meta("og:url")).toBe(`${APP}`);
  expect(meta("twitter:card")).toBe("summary_large_image");
  const image = meta("og:image")!;
  expect(image.startsWith(`${APP}/opengraph-image`)).toBe(true);
  expect(meta("og:image:width")).toBe("1200");
  expect(meta("og:image:height")).toBe("630");
  const res = await fetch(image);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const png = Buffer.from(await res.arrayBuffer());
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
});

test("a paid route asked without a body answers its 402; a body that is there and invalid is a 400", async () => {
  const probe = await fetch(`${APP}/api/namespace/feedback`, { method: "POST" });
  expect(probe.status).toBe(402);
  expect(probe.headers.get("payment-required")).toBeTruthy();
  expect(probe.headers.get("www-authenticate")).toMatch(/^Payment /);
  expect(await probe.json()).toMatchObject({ price: { amount: "0.01", currency: "USD" } });
  const invalid = await fetch(`${APP}/api/namespace/feedback`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ namespace: "x" }),
  });
  expect(invalid.status).toBe(400);
  const empty = await fetch(`${APP}/api/namespace/feedback`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(empty.status).toBe(400);
});
