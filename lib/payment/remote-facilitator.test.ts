import { createServer, type RequestListener } from "node:http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { createPublicClient, custom, encodeAbiParameters } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { remoteFacilitator } from "./remote-facilitator";
import { SettlementUnavailable } from "./types";
import { settleFailure } from "./x402-settlement";

const network = "eip155:31337" as const;
const payload = {
  x402Version: 2,
  payload: { authorization: { from: `0x${"11".repeat(20)}`, nonce: `0x${"22".repeat(32)}` } },
} as unknown as PaymentPayload;
const requirements = { asset: `0x${"33".repeat(20)}`, network } as unknown as PaymentRequirements;

/** A chain whose token answers authorizationState with `spent`. */
const chainSaying = (spent: boolean) => () =>
  createPublicClient({
    transport: custom({
      request: async ({ method }) => {
        if (method !== "eth_call") throw new Error(`unexpected ${method}`);
        return encodeAbiParameters([{ type: "bool" }], [spent]);
      },
    }),
  }) as never;

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))));

async function facilitatorAt(handler: RequestListener, spent = false) {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return remoteFacilitator({ url: `http://127.0.0.1:${port}`, timeoutMs: 2_000, reader: chainSaying(spent) });
}
const answering =
  (status: number, body: unknown): RequestListener =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
const refusal = {
  success: false,
  errorReason: "invalid_exact_evm_insufficient_balance",
  transaction: "",
  network,
};

describe("a remote facilitator, as the service reads its answers", () => {
  it("sent nothing when the connection is refused: the settlement could not start", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const gone = remoteFacilitator({
      url: `http://127.0.0.1:${port}`,
      timeoutMs: 2_000,
      reader: chainSaying(false),
    });
    await expect(gone.settle(payload, requirements)).rejects.toBeInstanceOf(SettlementUnavailable);
  });

  it("may have sent when the connection drops mid-request: unknown, never 'could not start'", async () => {
    const dropping = await facilitatorAt((req) => req.socket.destroy());
    const error = await dropping.settle(payload, requirements).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SettlementUnavailable);
  });

  it("leaves a refusal to the chain while it shows the authorization unspent: it may be broadcast and unmined", async () => {
    for (const status of [200, 400]) {
      const refusing = await facilitatorAt(answering(status, refusal));
      const answer = await refusing.settle(payload, requirements);
      expect(answer).toMatchObject({ success: false, errorReason: "settlement_pending" });
      expect(settleFailure(answer).kind).toBe("unknown");
      expect(answer.errorMessage).toContain("invalid_exact_evm_insufficient_balance");
    }
  });

  it("is not believed when it reports a failure the chain contradicts: the nonce is spent", async () => {
    for (const status of [200, 400]) {
      const lying = await facilitatorAt(answering(status, refusal), true);
      const answer = await lying.settle(payload, requirements);
      expect(answer).toMatchObject({ success: false, errorReason: "settlement_pending" });
      expect(answer.errorMessage).toContain("spent on chain");
    }
  });

  it("refuses a verification with a 4xx status as a refusal; a 5xx one is an outage", async () => {
    const invalid = { isValid: false, invalidReason: "invalid_exact_evm_signature" };
    expect(await (await facilitatorAt(answering(400, invalid))).verify(payload, requirements)).toMatchObject(
      invalid,
    );
    const failing = await facilitatorAt(answering(500, invalid));
    await expect(failing.verify(payload, requirements)).rejects.toThrow();
  });
});
