import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer, type RouteCall, TOOL_NAMES } from "./server";

// The tool ↔ route mapping alone, against a recording dispatch; the routes themselves, paid for real
// with the official clients, are covered end to end in e2e/api/mcp.spec.ts.
const calls: RouteCall[] = [];
let answer: () => Response = () => Response.json({ ok: true });
let client: Client;

async function connect() {
  const server = createMcpServer(
    async (call) => {
      calls.push(call);
      return answer();
    },
    new Headers({ "x-feedback-peer-address": "203.0.113.7" }),
    "0.0.0-test",
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "unit", version: "1" });
  await client.connect(clientSide);
  return client;
}

afterEach(async () => {
  calls.length = 0;
  answer = () => Response.json({ ok: true });
  await client?.close();
});

type Result = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

describe("MCP server", () => {
  it("lists one tool per route, with JSON Schemas from the route's zod schema", async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const submit = tools.find((t) => t.name === "submit_feedback")!;
    expect(submit.inputSchema).toMatchObject({
      type: "object",
      additionalProperties: false,
      properties: { type: { enum: ["bug", "feature", "feedback"] }, idempotencyKey: { type: "string" } },
    });
    const status = tools.find((t) => t.name === "feedback_status")!;
    expect(status.inputSchema.properties).not.toHaveProperty("idempotencyKey");
  });

  it("sends a paid tool's arguments as the body and its _meta as the route's payment headers", async () => {
    const c = await connect();
    const payment = { x402Version: 2, payload: { signature: "0xabc" } };
    await c.callTool({
      name: "submit_feedback",
      arguments: { namespace: "acme", type: "bug", idempotencyKey: "k-1" },
      _meta: { "x402/payment": payment, "sign-in-with-x": "cHJvb2Y=" },
    });
    const [call] = calls;
    expect(call).toMatchObject({
      method: "POST",
      path: "/api/namespace/feedback",
      body: { namespace: "acme", type: "bug" },
    });
    expect(JSON.parse(Buffer.from(call!.headers.get("payment-signature")!, "base64").toString())).toEqual(
      payment,
    );
    expect(call!.headers.get("idempotency-key")).toBe("k-1");
    expect(call!.headers.get("sign-in-with-x")).toBe("cHJvb2Y=");
    expect(call!.headers.get("x-feedback-peer-address")).toBe("203.0.113.7");
  });

  it("sends a read tool's arguments as its query", async () => {
    const c = await connect();
    await c.callTool({
      name: "list_feedback",
      arguments: { namespace: "acme", limit: 5, resolved: "false" },
    });
    expect(calls[0]).toMatchObject({
      method: "GET",
      path: "/api/namespace/list",
      query: { namespace: "acme", limit: "5", resolved: "false" },
    });
    expect(calls[0]!.body).toBeUndefined();
  });

  it("answers a 402 with the x402 PaymentRequired as structuredContent and the MPP challenges in _meta", async () => {
    const required = {
      x402Version: 2,
      resource: {
        url: "http://localhost/api/namespace/feedback",
        description: "d",
        mimeType: "application/json",
      },
      accepts: [],
    };
    answer = () =>
      Response.json(
        { status: 402, detail: "Submitting feedback costs 0.01 USD." },
        {
          status: 402,
          headers: {
            "payment-required": encodePaymentRequiredHeader(required as never),
            "www-authenticate":
              'Payment id="abc", realm="localhost", method="tempo", intent="charge", request="eyJhbW91bnQiOiIxMDAwMCJ9"',
          },
        },
      );
    const result = (await (await connect()).callTool({ name: "submit_feedback", arguments: {} })) as Result;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      ...required,
      error: "Submitting feedback costs 0.01 USD.",
    });
    expect(result._meta?.["org.paymentauth/payment-required"]).toMatchObject({
      httpStatus: 402,
      challenges: [expect.objectContaining({ id: "abc", method: "tempo", intent: "charge" })],
    });
  });

  it("passes a paid answer on with its settlement in _meta", async () => {
    const settled = { success: true, transaction: "0x01", network: "eip155:31337", payer: "0x02" };
    answer = () =>
      Response.json(
        { id: "fb_1" },
        { headers: { "payment-response": encodePaymentResponseHeader(settled as never) } },
      );
    const result = (await (await connect()).callTool({ name: "submit_feedback", arguments: {} })) as Result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: "fb_1" });
    expect(result._meta?.["x402/payment-response"]).toMatchObject(settled);
  });

  it("refuses malformed payment metadata and stray keys naming them, without calling the route", async () => {
    const c = await connect();
    const bad = async (
      args: Record<string, unknown>,
      meta: Record<string, unknown>,
      name = "submit_feedback",
    ) => (await c.callTool({ name, arguments: args, _meta: meta })) as Result;
    expect((await bad({}, { "x402/payment": "nope" })).structuredContent).toMatchObject({
      status: 400,
      errors: [{ field: '_meta["x402/payment"]' }],
    });
    expect((await bad({}, { "org.paymentauth/credential": 7 })).structuredContent).toMatchObject({
      errors: [{ field: '_meta["org.paymentauth/credential"]' }],
    });
    expect((await bad({}, { "sign-in-with-x": 7 })).structuredContent).toMatchObject({
      errors: [{ field: '_meta["sign-in-with-x"]' }],
    });
    expect((await bad({ idempotencyKey: 5 }, {})).structuredContent).toMatchObject({
      errors: [{ field: "idempotencyKey" }],
    });
    expect((await bad({ idempotencyKey: "k" }, {}, "feedback_status")).structuredContent).toMatchObject({
      errors: [{ field: "idempotencyKey" }],
    });
    expect(calls).toEqual([]);
    await expect(c.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});
