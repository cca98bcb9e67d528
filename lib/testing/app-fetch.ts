import * as wellKnownX402Route from "@/app/.well-known/x402/route";
import * as feedbackRoute from "@/app/api/namespace/feedback/route";
import * as listRoute from "@/app/api/namespace/list/route";
import * as registerRoute from "@/app/api/namespace/register/route";
import * as resolveRoute from "@/app/api/namespace/resolve/route";
import * as statusRoute from "@/app/api/namespace/status/route";
import * as webhookDeliveriesRoute from "@/app/api/namespace/webhook/deliveries/route";
import * as webhookRotateRoute from "@/app/api/namespace/webhook/rotate/route";
import * as webhookRoute from "@/app/api/namespace/webhook/route";
import * as webhookTestRoute from "@/app/api/namespace/webhook/test/route";
import * as llmsRoute from "@/app/llms.txt/route";
import * as openApiRoute from "@/app/openapi.json/route";

type Method = "GET" | "POST" | "PATCH";
type Route = Partial<Record<Method, (request: Request) => Promise<Response>>>;

const ROUTES: Record<string, Route> = {
  "/api/namespace/feedback": feedbackRoute,
  "/api/namespace/list": listRoute,
  "/api/namespace/register": registerRoute,
  "/api/namespace/resolve": resolveRoute,
  "/api/namespace/status": statusRoute,
  "/api/namespace/webhook": webhookRoute,
  "/api/namespace/webhook/rotate": webhookRotateRoute,
  "/api/namespace/webhook/test": webhookTestRoute,
  "/api/namespace/webhook/deliveries": webhookDeliveriesRoute,
  "/openapi.json": openApiRoute,
  "/llms.txt": llmsRoute,
  "/.well-known/x402": wellKnownX402Route,
};

/** A fetch that calls the route handlers in-process, so route tests need no server. */
export const appFetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const handler = ROUTES[new URL(request.url).pathname]?.[request.method as Method];
  if (!handler) return new Response("not found", { status: 404 });
  return handler(request);
};

export const APP = "http://localhost:3000";

/** A JSON POST init. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

/** A short random suffix so tests sharing a database never collide. */
export function uniqueName(prefix = "t"): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}
