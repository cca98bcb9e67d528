import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "./errors";
import { handle, json, markPhase } from "./handler";
import { registeredFamilies } from "./metrics";
import { renderExposition } from "./prometheus";
import { noteRequest, requestIdOf } from "./request-context";
import { requestLogEnabled } from "./request-log";
import { parseServerTiming } from "./server-timing";

// This file's configuration turns request logs on (read lazily, on the first request).
process.env.LOG_REQUESTS = "true";

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

const SECRETS = {
  "sign-in-with-x": "eyJzaWduLWluLXByb29m",
  "payment-signature": "eyJwYXltZW50LXNpZ25hdHVyZQ",
  authorization: "Payment eyJtcHAtY3JlZGVudGlhbA",
  cookie: "session=s3cr3t-cookie",
};

describe("request ids", () => {
  it("keeps a client's safe token and replaces anything else with a fresh UUID", () => {
    const of = (value?: string) =>
      requestIdOf(new Headers(value === undefined ? {} : { "x-request-id": value }));
    expect(of("req-1.A_b")).toBe("req-1.A_b");
    expect(of("a".repeat(128))).toBe("a".repeat(128));
    for (const bad of [undefined, "", "a".repeat(129), "two words", "a/b", 'quote"', "a;b=c", "é"]) {
      expect(of(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    expect(of()).not.toBe(of());
  });
});

describe("the route wrapper's request log", () => {
  it("answers with x-request-id and logs one line of known fields: no header, query string or body", async () => {
    const route = handle(async (request) => {
      noteRequest({ protocol: "x402", paymentId: "pay_123" });
      return json({ echoed: (await request.json()).secret });
    });
    const res = await route(
      new Request("http://localhost/api/namespace/feedback?cursor=c3VyZS1zZWNyZXQ&namespace=acme", {
        method: "POST",
        headers: { ...SECRETS, "x-request-id": "trace-42" },
        body: JSON.stringify({ secret: "body-secret-value" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("trace-42");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    const [line] = logged();
    expect(line).toEqual({
      level: "info",
      msg: "request",
      requestId: "trace-42",
      method: "POST",
      route: "/api/namespace/feedback",
      status: 200,
      durationMs: expect.any(Number),
      protocol: "x402",
      paymentId: "pay_123",
    });
    for (const secret of [...Object.values(SECRETS), "c3VyZS1zZWNyZXQ", "acme", "body-secret-value"]) {
      expect(lines[0]).not.toContain(secret);
    }
  });

  it("logs refusals and 500s with the status they got, and a generated id", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const refused = await handle(async () => {
      throw new AppError("rate-limited", "slow down");
    })(new Request("http://localhost/api/namespace/list", { headers: { "x-request-id": "bad id" } }));
    const crashed = await handle(async () => {
      throw new Error("boom");
    })(new Request("http://localhost/api/namespace/status"));
    expect([refused.status, crashed.status]).toEqual([429, 500]);
    const [a, b] = logged();
    expect(a).toMatchObject({
      route: "/api/namespace/list",
      status: 429,
      requestId: refused.headers.get("x-request-id"),
    });
    expect(a!.requestId).not.toBe("bad id");
    expect(b).toMatchObject({ route: "/api/namespace/status", status: 500 });
    expect(a).not.toHaveProperty("protocol");
  });

  it("keeps successful probes out of the log with logOk: false, but not their failures", async () => {
    await handle(async () => json({ status: "ok" }), { logOk: false })(
      new Request("http://localhost/healthz"),
    );
    expect(lines).toHaveLength(0);
    await handle(async () => json({}, { status: 503 }), { logOk: false })(
      new Request("http://localhost/readyz"),
    );
    expect(logged()).toMatchObject([{ route: "/readyz", status: 503 }]);
  });

  it("gives a route called in process (an MCP tool) the outer request's id", async () => {
    const inner = handle(async () => json({}));
    const outer = handle(async () => {
      const res = await inner(new Request("http://localhost/api/namespace/feedback", { method: "POST" }));
      return json({ inner: res.headers.get("x-request-id") });
    });
    const res = await outer(
      new Request("http://localhost/mcp", { method: "POST", headers: { "x-request-id": "mcp-1" } }),
    );
    expect(await res.json()).toEqual({ inner: "mcp-1" });
    expect(logged().map((l) => [l.route, l.requestId])).toEqual([
      ["/api/namespace/feedback", "mcp-1"],
      ["/mcp", "mcp-1"],
    ]);
  });

  it("counts each answer by route, method and status class", async () => {
    await handle(async () => json({}, { status: 404 }))(new Request("http://localhost/api/count-me"));
    const text = renderExposition(registeredFamilies());
    expect(text).toContain('feedback_http_requests_total{route="/api/count-me",method="GET",status="4xx"} 1');
    expect(text).toContain('feedback_http_request_duration_seconds_count{route="/api/count-me"} 1');
  });

  it("is on by default in production only, and LOG_REQUESTS decides when set", () => {
    expect(requestLogEnabled({ NODE_ENV: "production", LOG_REQUESTS: undefined })).toBe(true);
    expect(requestLogEnabled({ NODE_ENV: "test", LOG_REQUESTS: undefined })).toBe(false);
    expect(requestLogEnabled({ NODE_ENV: "development", LOG_REQUESTS: undefined })).toBe(false);
    expect(requestLogEnabled({ NODE_ENV: "production", LOG_REQUESTS: false })).toBe(false);
    expect(requestLogEnabled({ NODE_ENV: "test", LOG_REQUESTS: true })).toBe(true);
  });
});

describe("the route wrapper's Server-Timing", () => {
  const phases = (res: Response) => Object.keys(parseServerTiming(res.headers.get("server-timing")));

  it("names the phases a route marked, then the rest of a signed-in route as db, then the total", async () => {
    const signedIn = handle(async () => {
      markPhase("auth");
      return json({});
    });
    expect(phases(await signedIn(new Request("http://localhost/api/namespace/list")))).toEqual([
      "auth",
      "db",
      "total",
    ]);
    const refused = handle(async () => {
      markPhase("auth");
      throw new AppError("sign-in-invalid", "no");
    });
    expect(phases(await refused(new Request("http://localhost/api/namespace/list")))).toEqual([
      "auth",
      "total",
    ]);
    expect(phases(await handle(async () => json({}))(new Request("http://localhost/healthz")))).toEqual([
      "total",
    ]);
  });

  it("keeps a route's own Server-Timing (a paid call's)", async () => {
    const paid = handle(async () =>
      json({}, { headers: { "server-timing": "settle;dur=3.0, total;dur=4.0" } }),
    );
    const res = await paid(new Request("http://localhost/api/namespace/feedback", { method: "POST" }));
    expect(res.headers.get("server-timing")).toBe("settle;dur=3.0, total;dur=4.0");
    expect(() => markPhase("outside")).not.toThrow();
  });
});
