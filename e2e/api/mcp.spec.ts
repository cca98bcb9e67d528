import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import type { PaymentRequired } from "@x402/core/types";
import { createSIWxPayload } from "@x402/extensions/sign-in-with-x";
import { tempo as tempoMethod } from "mppx/client";
import { McpClient } from "mppx/mcp/client";
import { type Hash, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getTransactionReceipt } from "viem/actions";
import { Abis } from "viem/tempo";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { devnetX402Payer } from "../../scripts/clients/x402-payer";
import { tempoClient } from "../../scripts/devnet/tempo";
import { APP, chain, devnet, item, startCallbackReceiver, uniqueName } from "./fixtures";

// An agent and an owner that speak only MCP. On Tempo, accounts[2] (owner) and accounts[3] (agent)
// pay from balances no other file touches; the x402 payer (accounts[5]) is checked by its transfers.
test.describe.configure({ mode: "serial" });

const tempo = devnet.tempo;
const TEMPO_NETWORK = `eip155:${tempo.chainId}`;
const ownerKey = devnet.accounts[2]!.privateKey;
const agentKey = devnet.accounts[3]!.privateKey;
const owner = privateKeyToAccount(ownerKey);
const agent = privateKeyToAccount(agentKey);

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  receipt?: { reference: string; status: string };
};

/** What went over the wire, secrets elided, kept as the test's artifact. */
const transcript: string[] = [];
const SECRET_KEYS = new Set(["signature", "serializedTransaction", "signedTransaction", "sign-in-with-x"]);
function redact(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) =>
    SECRET_KEYS.has(key) || (key === "payload" && typeof v === "object") ? "<elided>" : v,
  );
}
const recording: typeof fetch = async (input, init) => {
  if (typeof init?.body === "string") transcript.push(`→ ${JSON.stringify(redact(JSON.parse(init.body)))}`);
  const res = await fetch(input, init);
  const text = await res.clone().text();
  if (text) transcript.push(`← ${res.status} ${JSON.stringify(redact(JSON.parse(text)))}`);
  return res;
};

async function connect(name: string) {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${APP}/mcp`), { fetch: recording }));
  return client;
}

/** An MCP client that pays MPP challenges from `privateKey`, with mppx's own MCP wrapper. */
async function mppAgent(name: string, privateKey: `0x${string}`) {
  return McpClient.wrap(await connect(name), {
    methods: [
      tempoMethod.charge({ account: privateKeyToAccount(privateKey), getClient: () => tempoClient(tempo) }),
    ],
  });
}

/** Calls a tool that needs a sign-in: asks, signs the challenge on `network`, and calls again with the proof. */
async function signedCall(
  client: Pick<Client, "callTool">,
  privateKey: `0x${string}`,
  network: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const asked = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(asked.isError).toBe(true);
  const declared = asked.structuredContent!.extensions as Record<string, Record<string, unknown>>;
  const siwx = declared["sign-in-with-x"] as {
    info: Record<string, unknown>;
    supportedChains: { chainId: string; type: string }[];
  };
  const chosen = siwx.supportedChains.find((c) => c.chainId === network)!;
  const proof = await createSIWxPayload(
    { ...siwx.info, chainId: chosen.chainId, type: chosen.type } as Parameters<typeof createSIWxPayload>[0],
    privateKeyToAccount(privateKey),
    String(siwx.info.uri),
  );
  return (await client.callTool({ name, arguments: args, _meta: { "sign-in-with-x": proof } })) as ToolResult;
}

/** The USDC.e transfers of a Tempo transaction. */
async function tempoTransfers(hash: string) {
  const receipt = await getTransactionReceipt(tempoClient(tempo), { hash: hash as Hash });
  expect(receipt.status).toBe("success");
  return parseEventLogs({ abi: Abis.tip20, logs: receipt.logs, eventName: "Transfer" })
    .filter((l) => l.address.toLowerCase() === tempo.currency.toLowerCase())
    .map((l) => l.args as { from: string; to: string; amount: bigint });
}

test.afterAll(async () => {
  const body = transcript.join("\n");
  await writeFile(path.join(test.info().project.outputDir, "mcp-transcript.txt"), body);
  await test.info().attach("mcp-transcript.txt", { body, contentType: "text/plain" });
});

test("lists its tools, each with the input schema of its route", async () => {
  const client = await connect("lister");
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual([
    "submit_feedback",
    "feedback_status",
    "get_feedback",
    "register_namespace",
    "list_feedback",
    "answer_feedback",
    "confirm_fix",
    "set_callback",
    "known_issues",
    "set_feedback_status",
    "resolve_feedback",
    "list_members",
    "add_member",
    "remove_member",
    "propose_transfer",
    "cancel_transfer",
    "accept_transfer",
  ]);
  const submit = tools.find((t) => t.name === "submit_feedback")!;
  expect(submit.description).toMatch(/0\.01 USD/);
  expect(submit.inputSchema.required).toEqual(
    expect.arrayContaining(["namespace", "type", "title", "description"]),
  );
  expect(Object.keys(submit.inputSchema.properties ?? {})).toEqual(
    expect.arrayContaining(["idempotencyKey"]),
  );
  await client.close();
});

test("an agent files a report over MCP paying with MPP, follows it up signed in on Tempo, and the owner resolves it with a tip", async () => {
  const namespace = uniqueName("mcp-");
  const ownerClient = await mppAgent("owner", ownerKey);
  const agentClient = await mppAgent("agent", agentKey);

  const registered = (await ownerClient.callTool({
    name: "register_namespace",
    arguments: { namespace },
  })) as ToolResult;
  expect(registered.isError).toBeFalsy();
  expect(registered.structuredContent).toMatchObject({ namespace, ownerWallet: owner.address });
  expect(await tempoTransfers(registered.receipt!.reference)).toEqual([
    { from: owner.address, to: tempo.recipient, amount: 1_000_000n },
  ]);

  const submitted = (await agentClient.callTool({
    name: "submit_feedback",
    arguments: item(namespace, { title: "Filed over MCP" }),
  })) as ToolResult;
  expect(submitted.isError).toBeFalsy();
  const { id } = submitted.structuredContent as { id: string };
  expect(submitted.structuredContent).toMatchObject({ namespace, registered: true });
  expect(await tempoTransfers(submitted.receipt!.reference)).toEqual([
    { from: agent.address, to: tempo.recipient, amount: 10_000n },
  ]);

  const inbox = await signedCall(ownerClient, ownerKey, devnet.x402.network, "list_feedback", { namespace });
  expect(inbox.isError).toBeFalsy();
  expect((inbox.structuredContent!.feedback as { id: string }[]).map((f) => f.id)).toContain(id);

  const resolved = (await ownerClient.callTool({
    name: "resolve_feedback",
    arguments: { feedbackId: id, message: "Fixed in 2.4, thanks", rewardAmount: "0.05" },
  })) as ToolResult;
  expect(resolved.isError, JSON.stringify(resolved.structuredContent)).toBeFalsy();
  expect(resolved.structuredContent).toMatchObject({
    id,
    resolved: true,
    reward: { amount: "0.05", recipient: agent.address },
  });
  expect(await tempoTransfers(resolved.receipt!.reference)).toEqual([
    { from: owner.address, to: tempo.recipient, amount: 50_000n },
  ]);

  const status = await signedCall(agentClient, agentKey, TEMPO_NETWORK, "feedback_status", { namespace });
  expect(status.isError).toBeFalsy();
  expect(status.structuredContent).toMatchObject({
    submitter: agent.address,
    count: 1,
    feedback: [
      expect.objectContaining({
        id,
        resolved: true,
        resolution: expect.objectContaining({ message: "Fixed in 2.4, thanks", rewardAmount: "0.05" }),
      }),
    ],
  });
  const [followedUp] = status.structuredContent!.feedback as { resolution: { rewardTxHash: string } }[];
  const { reward } = resolved.structuredContent as { reward: { txHash: string } };
  expect(followedUp!.resolution.rewardTxHash).toBe(reward.txHash);
  expect(await tempoTransfers(reward.txHash)).toEqual([
    { from: tempo.payoutAddress, to: agent.address, amount: 50_000n },
  ]);
});

test("an agent pays over x402's MCP transport, and a retry under the same idempotencyKey is never charged again", async () => {
  const payer = devnetX402Payer(devnet, 5);
  const client = await connect("x402-agent");
  const args = { ...item(uniqueName("mcpx-")), idempotencyKey: `mcp-${Date.now()}` };

  const asked = (await client.callTool({ name: "submit_feedback", arguments: args })) as ToolResult;
  expect(asked.isError).toBe(true);
  const required = asked.structuredContent as unknown as PaymentRequired;
  expect(required.x402Version).toBe(2);
  expect(required.accepts[0]).toMatchObject({ amount: "10000", network: devnet.x402.network });
  // The same answer offers MPP to a client that speaks it.
  expect(asked._meta?.["org.paymentauth/payment-required"]).toMatchObject({ httpStatus: 402 });

  const payment = await payer.pay(required);
  const paid = (await client.callTool({
    name: "submit_feedback",
    arguments: args,
    _meta: { "x402/payment": payment },
  })) as ToolResult;
  expect(paid.isError, JSON.stringify(paid.structuredContent)).toBeFalsy();
  const settlement = paid._meta?.["x402/payment-response"] as { success: boolean; transaction: string };
  expect(settlement.success).toBe(true);
  const { transfers } = await chain.transfersIn(settlement.transaction);
  expect(transfers).toEqual([{ from: payer.address, to: devnet.x402.payTo, value: 10_000n }]);

  // The retry carries a newly signed payment: it gets the first answer, and the new payment is never spent.
  const again = await payer.pay(required);
  const retried = (await client.callTool({
    name: "submit_feedback",
    arguments: args,
    _meta: { "x402/payment": again },
  })) as ToolResult;
  expect(retried.structuredContent).toEqual(paid.structuredContent);
  const nonce = (again.payload as { authorization: { nonce: string } }).authorization.nonce;
  expect(await chain.authorizationUsed(payer.address, nonce)).toBe(false);
});

test("bad arguments and malformed payment metadata are refused naming the field, and nothing is charged", async () => {
  const client = await connect("careless-agent");
  const badType = (await client.callTool({
    name: "submit_feedback",
    arguments: item(uniqueName("mcpbad-"), { type: "complaint" }),
  })) as ToolResult;
  expect(badType.isError).toBe(true);
  expect(badType.structuredContent).toMatchObject({
    status: 400,
    errors: [expect.objectContaining({ field: "type" })],
  });

  const badMeta = (await client.callTool({
    name: "submit_feedback",
    arguments: item(uniqueName("mcpbad-")),
    _meta: { "x402/payment": "not a payment" },
  })) as ToolResult;
  expect(badMeta.structuredContent).toMatchObject({
    status: 400,
    errors: [{ field: '_meta["x402/payment"]', message: expect.any(String) }],
  });

  const forged = (await client.callTool({
    name: "submit_feedback",
    arguments: item(uniqueName("mcpbad-")),
    _meta: { "org.paymentauth/credential": { challenge: { id: "x", request: "e30" }, payload: {} } },
  })) as ToolResult;
  expect(forged.isError).toBe(true);
  // The refusal, and fresh challenges to pay again from: x402's, and MPP's in _meta.
  expect(forged.structuredContent).toMatchObject({ status: 402, x402Version: 2 });
  expect(forged._meta?.["org.paymentauth/payment-required"]).toMatchObject({ httpStatus: 402 });

  const unknown = await client.callTool({ name: "delete_everything", arguments: {} }).catch((e: Error) => e);
  expect(unknown).toBeInstanceOf(Error);

  const get = await fetch(`${APP}/mcp`);
  expect(get.status).toBe(405);
  expect(get.headers.get("allow")).toBe("POST");
  await client.close();
});

/** Calls a paid tool over x402's MCP transport: asks for the price, signs it with `payer`, calls again. */
async function paidOverX402(
  client: Pick<Client, "callTool">,
  payer: ReturnType<typeof devnetX402Payer>,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const asked = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(asked.isError, `${name} without payment`).toBe(true);
  const payment = await payer.pay(asked.structuredContent as unknown as PaymentRequired);
  const paid = (await client.callTool({
    name,
    arguments: args,
    _meta: { "x402/payment": payment },
  })) as ToolResult;
  expect(paid.isError, `${name}: ${JSON.stringify(paid.structuredContent)}`).toBeFalsy();
  return paid;
}

test("every listed tool answers end to end: paid ones over x402 and over MPP, signed-in ones with a proof", async () => {
  // accounts[5] owns the namespace and pays over x402; accounts[3] is the MPP agent of the test above.
  const x402Key = devnet.accounts[5]!.privateKey;
  const x402Payer = devnetX402Payer(devnet, 5);
  const x402Client = await connect("x402-owner");
  const mppClient = await mppAgent("mpp-agent", agentKey);
  const namespace = uniqueName("mcpall-");
  const called = new Set<string>();
  const x402Paid = async (name: string, args: Record<string, unknown>) => {
    called.add(name);
    const paid = await paidOverX402(x402Client, x402Payer, name, args);
    const settled = paid._meta?.["x402/payment-response"] as { transaction: string };
    expect((await chain.transfersIn(settled.transaction)).transfers).toHaveLength(1);
    return paid.structuredContent!;
  };
  const mppPaid = async (name: string, args: Record<string, unknown>) => {
    called.add(name);
    const paid = (await mppClient.callTool({ name, arguments: args })) as ToolResult;
    expect(paid.isError, `${name}: ${JSON.stringify(paid.structuredContent)}`).toBeFalsy();
    expect(await tempoTransfers(paid.receipt!.reference)).toHaveLength(1);
    return paid.structuredContent!;
  };
  const signed = async (key: `0x${string}`, network: string, name: string, args: Record<string, unknown>) => {
    called.add(name);
    const client = key === x402Key ? x402Client : mppClient;
    const result = await signedCall(client, key, network, name, args);
    expect(result.isError, `${name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
    return result.structuredContent!;
  };

  expect(await x402Paid("register_namespace", { namespace })).toMatchObject({
    namespace,
    ownerWallet: x402Payer.address,
  });
  const overMpp = (await mppPaid("submit_feedback", item(namespace))) as { id: string };
  const overX402 = (await x402Paid("submit_feedback", item(namespace))) as { id: string };
  // The rewarded report's agent asks to be told of changes: its callback hears of the paid resolution.
  const callback = await startCallbackReceiver();
  const rewarded = (await mppPaid("submit_feedback", {
    ...item(namespace),
    callbackUrl: callback.url,
  })) as { id: string; callbackSecret: string };
  expect(rewarded.callbackSecret).toMatch(/^whsec_/);

  const asked = await signed(x402Key, devnet.x402.network, "set_feedback_status", {
    namespace,
    feedbackIds: [overMpp.id, overX402.id],
    status: "needs_info",
    message: "Which browser was it?",
  });
  expect(asked).toMatchObject({ status: "needs_info", changed: [{ id: overMpp.id }, { id: overX402.id }] });

  // Each submitter answers from the wallet that filed the item, on the protocol it paid with.
  expect(await mppPaid("answer_feedback", { feedbackId: overMpp.id, message: "Safari 17" })).toMatchObject({
    feedbackId: overMpp.id,
    status: "open",
  });
  expect(await x402Paid("answer_feedback", { feedbackId: overX402.id, message: "Chrome 130" })).toMatchObject(
    { feedbackId: overX402.id, status: "open" },
  );
  const record = await signed(agentKey, TEMPO_NETWORK, "get_feedback", { id: overMpp.id });
  expect((record.history as { kind: string; message: string }[]).at(-1)).toMatchObject({
    kind: "follow_up",
    message: "Safari 17",
  });

  const inbox = await signed(x402Key, devnet.x402.network, "list_feedback", { namespace });
  expect(inbox.count).toBe(3);
  expect(
    await signed(x402Key, devnet.x402.network, "resolve_feedback", {
      feedbackId: overX402.id,
      message: "Fixed",
    }),
  ).toMatchObject({ id: overX402.id, resolved: true });
  // A reward paid over x402 goes to the refund wallet, and on to the submitter on Tempo.
  const tipped = (await x402Paid("resolve_feedback", {
    feedbackId: rewarded.id,
    message: "Thanks",
    rewardAmount: "0.02",
  })) as { reward: { recipient: string; txHash: string } };
  expect(tipped.reward.recipient).toBe(agent.address);
  expect(await tempoTransfers(tipped.reward.txHash)).toEqual([
    { from: tempo.payoutAddress, to: agent.address, amount: 20_000n },
  ]);
  // The submitter says the tipped resolution did not fix it: the item is open again, its reward kept.
  expect(
    await signed(agentKey, TEMPO_NETWORK, "confirm_fix", {
      id: rewarded.id,
      outcome: "not_fixed",
      note: "Still fails on Safari 17",
    }),
  ).toMatchObject({ id: rewarded.id, outcome: "not_fixed", status: "open" });
  const mine = await signed(agentKey, TEMPO_NETWORK, "feedback_status", { namespace });
  expect((mine.feedback as { id: string }[]).map((f) => f.id).sort()).toEqual(
    [overMpp.id, rewarded.id].sort(),
  );
  expect((mine.feedback as { id: string }[]).find((f) => f.id === rewarded.id)).toMatchObject({
    status: "open",
    rewardAmount: "0.02",
    confirmation: { outcome: "not_fixed", note: "Still fails on Safari 17", current: true },
  });

  // Published known issues: anyone reads the titles, free, without signing in.
  const published = await createSignInFetch(x402Key).fetch(`${APP}/api/namespace/known-issues`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ namespace, published: true }),
  });
  expect(published.status).toBe(200);
  called.add("known_issues");
  const knownIssues = (await x402Client.callTool({
    name: "known_issues",
    arguments: { namespace },
  })) as ToolResult;
  expect(knownIssues.isError).toBeFalsy();
  expect((knownIssues.structuredContent!.issues as { id: string }[]).map((i) => i.id)).toContain(overX402.id);
  // Delivered by the service's own worker, signed with the secret the submit answered.
  const told = await callback.next(rewarded.callbackSecret, "report.resolved");
  expect(told.data).toMatchObject({
    id: rewarded.id,
    status: "resolved",
    reward: { amount: "0.02", txHash: tipped.reward.txHash },
  });
  // Its reporter can move the callback or stop it; the answer to a new URL is a new secret.
  const moved = await signed(x402Key, devnet.x402.network, "set_callback", {
    id: overX402.id,
    callbackUrl: `${callback.url}/moved`,
  });
  expect(moved).toMatchObject({ id: overX402.id, callbackSecret: expect.stringMatching(/^whsec_/) });
  expect(
    await signed(x402Key, devnet.x402.network, "set_callback", { id: overX402.id, callbackUrl: null }),
  ).toEqual({ id: overX402.id, callbackUrl: null });
  await callback.close();

  // The team: the owner adds the agent as a viewer, lists and removes it, then hands the namespace to it.
  const owner = (name: string, args: Record<string, unknown>) =>
    signed(x402Key, devnet.x402.network, name, args);
  expect(await owner("add_member", { namespace, wallet: agent.address, role: "viewer" })).toMatchObject({
    wallet: agent.address,
    role: "viewer",
  });
  expect(await signed(agentKey, TEMPO_NETWORK, "list_members", { namespace })).toMatchObject({
    owner: x402Payer.address,
    members: [{ wallet: agent.address, role: "viewer" }],
  });
  expect(await owner("remove_member", { namespace, wallet: agent.address })).toMatchObject({ removed: true });
  await owner("propose_transfer", { namespace, to: agent.address });
  expect(await owner("cancel_transfer", { namespace })).toEqual({ namespace, cancelled: true });
  await owner("propose_transfer", { namespace, to: agent.address });
  expect(await signed(agentKey, TEMPO_NETWORK, "accept_transfer", { namespace })).toEqual({
    namespace,
    ownerWallet: agent.address,
  });

  const { tools } = await x402Client.listTools();
  expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
  await x402Client.close();
});
