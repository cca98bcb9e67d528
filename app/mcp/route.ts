import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { MAX_BODY_BYTES, readJsonBody } from "@/lib/http/body";
import { AppError } from "@/lib/http/errors";
import { handle } from "@/lib/http/handler";
import { PEER_HEADER } from "@/lib/http/peer-address";
import { createMcpServer, type Dispatch, TOOL_ROUTES } from "@/lib/mcp/server";
import packageJson from "@/package.json";
import * as callback from "../api/namespace/feedback/callback/route";
import * as confirm from "../api/namespace/feedback/confirm/route";
import * as followUp from "../api/namespace/feedback/follow-up/route";
import * as feedback from "../api/namespace/feedback/route";
import * as feedbackStatus from "../api/namespace/feedback/status/route";
import * as knownIssues from "../api/namespace/known-issues/route";
import * as list from "../api/namespace/list/route";
import * as members from "../api/namespace/members/route";
import * as register from "../api/namespace/register/route";
import * as resolve from "../api/namespace/resolve/route";
import * as status from "../api/namespace/status/route";
import * as transferAccept from "../api/namespace/transfer/accept/route";
import * as transfer from "../api/namespace/transfer/route";

type Handler = (request: Request) => Promise<Response>;
const ROUTES: Record<string, Partial<Record<"GET" | "POST" | "PATCH" | "DELETE", Handler>>> = {
  "/api/namespace/feedback": feedback,
  "/api/namespace/feedback/callback": callback,
  "/api/namespace/feedback/confirm": confirm,
  "/api/namespace/feedback/follow-up": followUp,
  "/api/namespace/feedback/status": feedbackStatus,
  "/api/namespace/known-issues": knownIssues,
  "/api/namespace/list": list,
  "/api/namespace/members": members,
  "/api/namespace/register": register,
  "/api/namespace/resolve": resolve,
  "/api/namespace/status": status,
  "/api/namespace/transfer": transfer,
  "/api/namespace/transfer/accept": transferAccept,
};
// A tool whose route is not mapped could be listed and never called: refuse to start instead.
for (const { method, path } of TOOL_ROUTES) {
  if (!ROUTES[path]?.[method]) throw new Error(`the MCP tool route ${method} ${path} is not mapped`);
}

/**
 * The MCP server over Streamable HTTP, stateless (no session: every POST is complete in itself) with
 * JSON answers. Each tool calls its API route in this process, as the same client would over HTTP.
 */
export const POST = handle(async (request) => {
  const body = await readJsonBody(request, { maxBytes: MAX_BODY_BYTES * 2 });
  const dispatch: Dispatch = async ({ method, path, query, body: routeBody, headers }) => {
    const route = ROUTES[path]?.[method];
    if (!route) throw new Error(`no route ${method} ${path}`);
    const url = new URL(path, request.url);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    return route(
      new Request(url, {
        method,
        headers,
        ...(routeBody === undefined ? {} : { body: JSON.stringify(routeBody) }),
      }),
    );
  };
  // The headers a tool call inherits: the client's address as the rate limits find it (the socket's, or
  // behind a trusted proxy the X-Forwarded-For it appended), so a tool call counts as its route would.
  const base = new Headers();
  for (const name of [PEER_HEADER, "x-forwarded-for"]) {
    const value = request.headers.get(name);
    if (value) base.set(name, value);
  }
  const server = createMcpServer(dispatch, base, packageJson.version);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
});

/** Without sessions there is no stream to open or session to end: only POST is served. */
const onlyPost = handle(async () => {
  throw new AppError(
    "method-not-allowed",
    "The MCP endpoint is stateless: send JSON-RPC messages with POST.",
    {
      headers: { allow: "POST" },
    },
  );
});
export const GET = onlyPost;
export const DELETE = onlyPost;
