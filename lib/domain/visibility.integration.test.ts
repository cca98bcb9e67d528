import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { PaymentRequired } from "@x402/core/types";
import { createSIWxPayload } from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";

// Who reads what: every read route and every MCP tool, called for real (routes in process, real sign-in
// proofs and payments) by the owner, a submitter, another submitter whose report the service suggested
// into the same group, a stranger and a caller with no sign-in. Nobody sees a row that is not theirs.
const devnet = workerDevnet();
const chain = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
const keyOf = (i: number) => devnet.accounts[i]!.privateKey as `0x${string}`;

type Role = "owner" | "alice" | "bob" | "stranger" | "unsigned";
const ROLES: Role[] = ["owner", "alice", "bob", "stranger", "unsigned"];
const INDEX = { owner: 2, alice: 3, bob: 4, stranger: 5 } as const;
const signedIn = (role: Exclude<Role, "unsigned">) => createSignInFetch(keyOf(INDEX[role]), appFetch).fetch;
const reader = (role: Role): typeof fetch => (role === "unsigned" ? appFetch : signedIn(role));

const namespace = uniqueName("seen");
const items = { alice: [] as string[], bob: [] as string[] };
const allIds = () => [...items.alice, ...items.bob];
/** The items a role may see as rows of its own: its submissions, or all of them for the owner. A copy, so
 * sorting it leaves `items` in the order the reports were filed (the group check reads Alice's first). */
const own = (role: Role) =>
  role === "owner" ? allIds() : role === "alice" || role === "bob" ? [...items[role]] : [];

const checkout = {
  type: "bug",
  title: "Checkout button does nothing on the cart page",
  description: "Clicking Checkout on /cart does nothing: no request is sent and no error is shown.",
};

async function submit(role: "alice" | "bob", body: Record<string, unknown>) {
  const payer = devnetX402Payer(devnet, INDEX[role], appFetch);
  const res = await payer.fetch(`${APP}/api/namespace/feedback`, postJson({ namespace, ...body }));
  expect(res.status).toBe(200);
  items[role].push((await res.json()).id);
}

/** Ids of this test's items that a body names, beyond those the request named itself (a 402 echoes its URL). */
const named = (body: string, asked = "") => allIds().filter((id) => body.includes(id) && !asked.includes(id));

async function ownerRecord(id: string) {
  return (await signedIn("owner")(`${APP}/api/namespace/feedback?id=${id}`)).json();
}

beforeAll(async () => {
  const register = await devnetX402Payer(devnet, INDEX.owner, appFetch).fetch(
    `${APP}/api/namespace/register`,
    postJson({ namespace }),
  );
  expect(register.status).toBe(200);
  await submit("alice", checkout);
  await submit("alice", {
    type: "feature",
    title: "Dark mode for the dashboard",
    description: "Please add a dark theme.",
  });
  await submit("bob", { ...checkout, title: "checkout button does nothing on the cart page" });
  // Grouping runs once a submission is answered: wait until the service suggested Bob's into Alice's group.
  for (let tries = 0; (await ownerRecord(items.bob[0]!)).groupKind !== "suggested"; tries++) {
    if (tries > 100) throw new Error("the service never suggested Bob's report into Alice's group");
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);

/** A read route, by role: its status, and the test's item ids its body names. */
async function read(role: Role, path: string) {
  const res = await reader(role)(`${APP}${path}`);
  return { status: res.status, ids: named(await res.text(), path) };
}

describe("read routes", () => {
  const ownerOnly = () => [
    `/api/namespace/list?namespace=${namespace}`,
    `/api/namespace/list?namespace=${namespace}&grouped=true&q=checkout`,
    `/api/namespace/export?namespace=${namespace}&format=csv`,
    `/api/namespace/export?namespace=${namespace}&format=json`,
    `/api/namespace/insights?namespace=${namespace}`,
    `/api/dashboard/counts?namespace=${namespace}`,
    `/api/namespace/webhook?namespace=${namespace}`,
    `/api/namespace/webhook/deliveries?namespace=${namespace}`,
  ];

  it("answers the owner's views to the owner only", async () => {
    for (const path of ownerOnly()) {
      for (const role of ROLES) {
        const { status, ids } = await read(role, path);
        const expected = role === "owner" ? 200 : role === "unsigned" ? 402 : 403;
        expect(status, `${role} ${path}`).toBe(expected);
        if (role !== "owner") expect(ids, `${role} ${path}`).toEqual([]);
      }
    }
    const listed = await read("owner", `/api/namespace/list?namespace=${namespace}`);
    expect(listed.ids.sort()).toEqual(allIds().sort());
  });

  it("gives each caller its own submissions in status, and no one else's", async () => {
    for (const path of [`/api/namespace/status?namespace=${namespace}`, "/api/namespace/status"]) {
      for (const role of ROLES) {
        const { status, ids } = await read(role, path);
        expect(status, `${role} ${path}`).toBe(role === "unsigned" ? 402 : 200);
        expect(ids.sort(), `${role} ${path}`).toEqual(role === "owner" ? [] : own(role).sort());
      }
    }
  });

  it("shows an item in full to its owner and its submitter only; the submitter sees no other report", async () => {
    for (const id of allIds()) {
      for (const role of ROLES) {
        const res = await reader(role)(`${APP}/api/namespace/feedback?id=${id}`);
        const body = await res.text();
        if (role === "owner") {
          expect(res.status).toBe(200);
          continue;
        }
        const mine = own(role).includes(id);
        expect(res.status, `${role} reads ${id}`).toBe(role === "unsigned" ? 402 : mine ? 200 : 403);
        expect(named(body, mine ? "" : id), `${role} reads ${id}`).toEqual(mine ? [id] : []);
        if (mine) expect(JSON.parse(body)).not.toHaveProperty("group");
      }
    }
    // The owner sees the suggested group, with who filed each report.
    const bobs = await ownerRecord(items.bob[0]!);
    expect(
      bobs.group.map((g: { id: string }) => g.id),
      JSON.stringify({ bobs, items }),
    ).toEqual([items.alice[0]]);
  });

  it("shows the owner's labels, and the history entries that add them, to the owner alone", async () => {
    const target = items.bob[0]!;
    const labelled = await signedIn("owner")(
      `${APP}/api/namespace/feedback/labels`,
      postJson({ namespace, feedbackIds: [target], add: ["angry-vip-customer"] }),
    );
    expect(labelled.status).toBe(200);
    const paths = [
      `/api/namespace/status?namespace=${namespace}`,
      `/api/namespace/feedback?id=${target}`,
      `/api/namespace/known-issues?namespace=${namespace}`,
    ];
    for (const role of ROLES) {
      for (const path of paths) {
        const body = await (await reader(role)(`${APP}${path}`)).text();
        expect(body.includes("angry-vip-customer"), `${role} ${path}`).toBe(
          role === "owner" && path.includes("feedback?id="),
        );
      }
      const tools = [
        await tool(role, "feedback_status", { namespace }),
        await tool(role, "get_feedback", { id: target }),
      ];
      expect(JSON.stringify(tools).includes("angry-vip-customer"), `${role} MCP`).toBe(role === "owner");
    }
    // Bob's own record carries no labels field and no labels entry at all.
    const bobs = await (await signedIn("bob")(`${APP}/api/namespace/feedback?id=${target}`)).json();
    expect(bobs).not.toHaveProperty("labels");
    expect(bobs.history.map((h: { kind: string }) => h.kind)).not.toContain("labels");
    await signedIn("owner")(
      `${APP}/api/namespace/feedback/labels`,
      postJson({ namespace, feedbackIds: [target], remove: ["angry-vip-customer"] }),
    );
  });

  it("lists a wallet's own namespaces only", async () => {
    for (const role of ROLES) {
      const res = await reader(role)(`${APP}/api/dashboard/namespaces`);
      expect(res.status, role).toBe(role === "unsigned" ? 402 : 200);
      expect((await res.text()).includes(namespace), role).toBe(role === "owner");
    }
  });
});

/** An MCP client of the endpoint, in process. */
async function mcp(): Promise<Pick<Client, "callTool">> {
  const client = new Client({ name: "visibility", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${APP}/mcp`), { fetch: appFetch }));
  return client;
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown> };

/** Calls a tool as `role`: unsigned as is; otherwise with a proof signed for the challenge it answers. */
async function tool(role: Role, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const client = await mcp();
  const asked = (await client.callTool({ name, arguments: args })) as ToolResult;
  if (role === "unsigned") return asked;
  const declared = asked.structuredContent?.extensions as Record<string, Record<string, unknown>> | undefined;
  const siwx = declared?.["sign-in-with-x"] as
    | { info: Record<string, unknown>; supportedChains: { chainId: string; type: string }[] }
    | undefined;
  if (!siwx) return asked;
  const chosen = siwx.supportedChains[0]!;
  const proof = await createSIWxPayload(
    { ...siwx.info, chainId: chosen.chainId, type: chosen.type } as Parameters<typeof createSIWxPayload>[0],
    privateKeyToAccount(keyOf(INDEX[role])),
    String(siwx.info.uri),
  );
  return (await client.callTool({ name, arguments: args, _meta: { "sign-in-with-x": proof } })) as ToolResult;
}

/** A tool result's HTTP status: a problem's, or 402 for x402's PaymentRequired (a price or a sign-in). */
function statusOf(result: ToolResult): number {
  if (!result.isError) return 200;
  const content = result.structuredContent ?? {};
  return typeof content.status === "number" ? content.status : "x402Version" in content ? 402 : 0;
}

describe("MCP tools", () => {
  it("reads: the owner's inbox to the owner, each submitter its own items", async () => {
    for (const role of ROLES) {
      const inbox = await tool(role, "list_feedback", { namespace });
      expect(statusOf(inbox), `${role} list_feedback`).toBe(
        role === "owner" ? 200 : role === "unsigned" ? 402 : 403,
      );
      const status = await tool(role, "feedback_status", { namespace });
      expect(statusOf(status), `${role} feedback_status`).toBe(role === "unsigned" ? 402 : 200);
      expect(named(JSON.stringify(status)).sort(), role).toEqual(role === "owner" ? [] : own(role).sort());
      for (const id of allIds()) {
        const got = await tool(role, "get_feedback", { id });
        const may = role === "owner" || own(role).includes(id);
        expect(statusOf(got), `${role} get_feedback ${id}`).toBe(may ? 200 : role === "unsigned" ? 402 : 403);
        if (role !== "owner") {
          expect(named(JSON.stringify(got), may ? "" : id), `${role} ${id}`).toEqual(may ? [id] : []);
        }
      }
    }
  });

  it("writes: only the owner triages or resolves, and a refused call changes nothing", async () => {
    const target = items.alice[0]!;
    for (const role of ROLES.filter((r) => r !== "owner")) {
      const moved = await tool(role, "set_feedback_status", {
        namespace,
        feedbackIds: [target],
        status: "spam",
      });
      expect(statusOf(moved), `${role} set_feedback_status`).toBe(role === "unsigned" ? 402 : 403);
      const resolved = await tool(role, "resolve_feedback", { feedbackId: target, message: "no" });
      expect(statusOf(resolved), `${role} resolve_feedback`).toBe(role === "unsigned" ? 402 : 403);
    }
    expect(await ownerRecord(target)).toMatchObject({ status: "open", resolved: false, history: [] });
    const asked = await tool("owner", "set_feedback_status", {
      namespace,
      feedbackIds: [target],
      status: "needs_info",
      message: "Which browser?",
    });
    expect(statusOf(asked)).toBe(200);
    // Only its submitter may answer; anyone else's payment is refused before it is taken.
    for (const role of ["bob", "stranger"] as const) {
      const client = await mcp();
      const args = { feedbackId: target, message: "me too" };
      const priced = (await client.callTool({ name: "answer_feedback", arguments: args })) as ToolResult;
      const payer = devnetX402Payer(devnet, INDEX[role]);
      const payment = await payer.pay(priced.structuredContent as unknown as PaymentRequired);
      const paid = (await client.callTool({
        name: "answer_feedback",
        arguments: args,
        _meta: { "x402/payment": payment },
      })) as ToolResult;
      expect(statusOf(paid), `${role} answer_feedback`).toBe(403);
      const nonce = (payment.payload as { authorization: { nonce: string } }).authorization.nonce;
      expect(await chain.authorizationUsed(payer.address, nonce)).toBe(false);
    }
    expect((await ownerRecord(target)).history.map((h: { kind: string }) => h.kind)).toEqual(["status"]);
  });
});

describe("a reporter's callback and its answer to a resolution", () => {
  const CALLBACK = "http://127.0.0.1:9/alice-private-callback";

  it("sets and learns a callback for its reporter alone; only the reporter's own list shows its URL, no read its secret", async () => {
    const payer = devnetX402Payer(devnet, INDEX.alice, appFetch);
    const res = await payer.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ namespace, ...checkout, title: "Checkout total ignores the coupon", callbackUrl: CALLBACK }),
    );
    expect(res.status).toBe(200);
    const { id, callbackSecret } = await res.json();
    items.alice.push(id);
    const readable = [
      `/api/namespace/list?namespace=${namespace}`,
      `/api/namespace/export?namespace=${namespace}&format=json`,
      `/api/namespace/webhook/deliveries?namespace=${namespace}`,
      `/api/namespace/status?namespace=${namespace}`,
      `/api/namespace/feedback?id=${id}`,
    ];
    for (const role of ROLES) {
      for (const path of readable) {
        const body = await (await reader(role)(`${APP}${path}`)).text();
        // The reporter's own list (its /submissions page) shows where its events go, to it alone.
        if (role === "alice" && path.startsWith("/api/namespace/status")) {
          expect(body, `${role} ${path}`).toContain(CALLBACK);
        } else {
          expect(body, `${role} ${path}`).not.toContain("alice-private-callback");
        }
        expect(body, `${role} ${path}`).not.toContain(callbackSecret);
      }
      const setting = await reader(role)(`${APP}/api/namespace/feedback/callback`, {
        ...postJson({ id, callbackUrl: `${CALLBACK}-moved` }),
        method: "PATCH",
      });
      const expected = role === "alice" ? 200 : role === "unsigned" ? 402 : 403;
      expect(setting.status, `${role} sets the callback`).toBe(expected);
      const answer = await setting.text();
      if (role !== "alice") expect(answer, role).not.toContain("alice-private-callback");
    }
  });

  it("takes a confirmation from the reporter alone, and shows it to the owner and the reporter only", async () => {
    const target = items.alice[1]!;
    const owner = signedIn("owner");
    const resolved = await owner(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: target, message: "Shipped" }),
    );
    expect(resolved.status).toBe(200);
    const note = "Dark mode works, thanks";
    for (const role of ROLES) {
      const res = await reader(role)(
        `${APP}/api/namespace/feedback/confirm`,
        postJson({ id: target, outcome: "fixed", note }),
      );
      const expected = role === "alice" ? 200 : role === "unsigned" ? 402 : 403;
      expect(res.status, `${role} confirms`).toBe(expected);
    }
    for (const role of ROLES) {
      const res = await reader(role)(`${APP}/api/namespace/feedback?id=${target}`);
      const body = await res.text();
      if (role === "owner" || role === "alice") {
        expect(JSON.parse(body).confirmation, role).toMatchObject({ outcome: "fixed", note, current: true });
      } else expect(body, role).not.toContain(note);
      const mine = await (await reader(role)(`${APP}/api/namespace/status?namespace=${namespace}`)).text();
      expect(mine.includes(note), `${role} status`).toBe(role === "alice");
    }
  });
});

describe("known issues", () => {
  it("are the same titles for everyone once published; the owner alone publishes them or reads them unpublished", async () => {
    const path = `/api/namespace/known-issues?namespace=${namespace}`;
    const patch = (role: Role, body: Record<string, unknown>) =>
      reader(role)(`${APP}/api/namespace/known-issues`, {
        ...postJson({ namespace, ...body }),
        method: "PATCH",
      });
    for (const role of ROLES) {
      expect((await reader(role)(`${APP}${path}`)).status, `${role} reads unpublished`).toBe(404);
      const expected = role === "owner" ? 200 : role === "unsigned" ? 402 : 403;
      expect((await reader(role)(`${APP}${path}&view=owner`)).status, `${role} view=owner`).toBe(expected);
      if (role !== "owner") expect((await patch(role, { published: true })).status, role).toBe(expected);
    }
    expect((await patch("owner", { published: true })).status).toBe(200);
    const bodies = new Set<string>();
    for (const role of ROLES) {
      const res = await reader(role)(`${APP}${path}`);
      expect(res.status, role).toBe(200);
      const body = await res.text();
      bodies.add(body);
      // Titles only: no description, wallet, label or history of anyone's report.
      for (const secret of [
        checkout.description,
        "Please add a dark theme",
        devnetX402Payer(devnet, INDEX.alice).address,
      ]) {
        expect(body, role).not.toContain(secret);
      }
    }
    expect(bodies.size).toBe(1);

    // A report filed once published is nobody's to read but the owner's until the owner has seen it.
    const later = "Bob Example, +1 555 0142, cannot pay";
    await submit("bob", {
      type: "feature",
      title: later,
      description: "Filed after the list was published.",
    });
    for (const role of ROLES) {
      const body = await (await reader(role)(`${APP}${path}`)).text();
      expect(body, role).not.toContain("Bob Example");
      const preview = await reader(role)(`${APP}${path}&view=owner`);
      expect((await preview.text()).includes("Bob Example"), `${role} view=owner`).toBe(role === "owner");
      const tools = [await tool(role, "known_issues", { namespace })];
      expect(JSON.stringify(tools), `${role} MCP`).not.toContain("Bob Example");
    }
    expect((await patch("owner", { unhide: [items.bob.at(-1)] })).status).toBe(200);
    for (const role of ROLES) {
      expect(await (await reader(role)(`${APP}${path}`)).text(), role).toContain("Bob Example");
    }
    expect((await patch("owner", { published: false })).status).toBe(200);
  });
});

describe("a namespace's team", () => {
  const TEAM = { admin: 6, triager: 7, viewer: 0, next: 1 } as const;
  type Member = keyof typeof TEAM;
  const as = (who: Member) => createSignInFetch(keyOf(TEAM[who]), appFetch).fetch;
  const addressOf = (who: Member) => privateKeyToAccount(keyOf(TEAM[who])).address;
  const send = (fetcher: typeof fetch, method: string, path: string, body: Record<string, unknown>) =>
    fetcher(`${APP}/api/namespace/${path}`, { ...postJson(body), method });

  beforeAll(async () => {
    for (const [who, role] of [
      ["admin", "admin"],
      ["triager", "triager"],
      ["viewer", "viewer"],
    ] as const) {
      const res = await send(signedIn("owner"), "POST", "members", {
        namespace,
        wallet: addressOf(who),
        role,
      });
      expect(res.status, who).toBe(200);
    }
  });

  it("reads and acts by role: every member reads, triagers triage, admins reward; strangers and reporters nothing", async () => {
    const target = items.alice[0]!;
    const members = `/api/namespace/members?namespace=${namespace}`;
    for (const who of ["admin", "triager", "viewer"] as const) {
      expect((await as(who)(`${APP}${members}`)).status, who).toBe(200);
      expect((await as(who)(`${APP}/api/namespace/list?namespace=${namespace}`)).status, who).toBe(200);
      const record = await (await as(who)(`${APP}/api/namespace/feedback?id=${target}`)).json();
      expect(record, who).toHaveProperty("group");
    }
    for (const role of ["alice", "bob", "stranger", "unsigned"] as const) {
      const res = await reader(role)(`${APP}${members}`);
      expect(res.status, role).toBe(role === "unsigned" ? 402 : 403);
      expect(await res.text(), role).not.toContain(addressOf("triager"));
    }
    const triage = (who: Member) =>
      send(as(who), "POST", "feedback/labels", { namespace, feedbackIds: [target], add: ["team"] });
    expect((await triage("viewer")).status).toBe(403);
    expect((await (await triage("viewer")).json()).type).toContain("role-forbidden");
    expect((await triage("triager")).status).toBe(200);
    const publish = (who: Member) => send(as(who), "PATCH", "known-issues", { namespace, published: false });
    expect((await publish("triager")).status).toBe(403);
    expect((await publish("admin")).status).toBe(200);
    // An admin manages viewers and triagers, never admins.
    const promote = await send(as("admin"), "POST", "members", {
      namespace,
      wallet: addressOf("viewer"),
      role: "admin",
    });
    expect(promote.status).toBe(403);
    // Bad input names its field: an address (a mixed-case one must carry its checksum), a role, a new owner.
    const fieldOf = async (res: Response) => {
      expect(res.status).toBe(400);
      return ((await res.json()).errors as { field: string }[]).map((e) => e.field);
    };
    const mistyped = addressOf("viewer")
      .replace(/[a-f]/, (c) => c.toUpperCase())
      .replace(/[A-F]/, (c) => c.toLowerCase());
    for (const wallet of ["0x1234", "not an address", mistyped]) {
      expect(
        await fieldOf(
          await send(signedIn("owner"), "POST", "members", { namespace, wallet, role: "viewer" }),
        ),
      ).toEqual(["wallet"]);
    }
    expect(
      await fieldOf(
        await send(signedIn("owner"), "POST", "members", {
          namespace,
          wallet: addressOf("viewer"),
          role: "boss",
        }),
      ),
    ).toEqual(["role"]);
    expect(
      await fieldOf(await send(signedIn("owner"), "POST", "transfer", { namespace, to: "0xnope" })),
    ).toEqual(["to"]);
    // The MCP tools carry the same rules.
    expect(statusOf(await tool("stranger", "list_members", { namespace }))).toBe(403);
    expect(statusOf(await tool("owner", "list_members", { namespace }))).toBe(200);
  });

  it("takes a reward from an admin's own wallet; a triager's paid resolve is refused before any charge", async () => {
    const target = items.alice[2]!;
    const triager = devnetX402Payer(devnet, TEAM.triager, appFetch);
    const before = await chain.balanceOf(triager.address);
    const refused = await triager.fetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: target, message: "Thanks", rewardAmount: "0.01" }),
    );
    expect(refused.status).toBe(403);
    expect(await chain.balanceOf(triager.address)).toBe(before);
    const paid = await devnetX402Payer(devnet, TEAM.admin, appFetch).fetch(
      `${APP}/api/namespace/resolve`,
      postJson({ feedbackId: target, message: "Thanks", rewardAmount: "0.01" }),
    );
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect((await paid.json()).reward).toMatchObject({ amount: "0.01" });
    // Its reporter reads the owner, never the admin's wallet.
    const mine = await (await signedIn("alice")(`${APP}/api/namespace/status?namespace=${namespace}`)).text();
    expect(mine).not.toContain(addressOf("admin"));
    expect(mine.toLowerCase()).not.toContain(addressOf("admin").toLowerCase());
  });

  it("loses a removed member at once, and hands the namespace over only when the new owner accepts", async () => {
    const own = uniqueName("handover");
    const register = await devnetX402Payer(devnet, INDEX.owner, appFetch).fetch(
      `${APP}/api/namespace/register`,
      postJson({ namespace: own }),
    );
    expect(register.status).toBe(200);
    await send(signedIn("owner"), "POST", "members", {
      namespace: own,
      wallet: addressOf("viewer"),
      role: "viewer",
    });
    expect((await as("viewer")(`${APP}/api/namespace/list?namespace=${own}`)).status).toBe(200);
    expect(
      (await send(signedIn("owner"), "DELETE", "members", { namespace: own, wallet: addressOf("viewer") }))
        .status,
    ).toBe(200);
    expect((await as("viewer")(`${APP}/api/namespace/list?namespace=${own}`)).status).toBe(403);

    const proposed = await send(signedIn("owner"), "POST", "transfer", {
      namespace: own,
      to: addressOf("next"),
    });
    expect(proposed.status).toBe(200);
    expect((await as("next")(`${APP}/api/namespace/list?namespace=${own}`)).status).toBe(403);
    expect((await send(signedIn("stranger"), "POST", "transfer/accept", { namespace: own })).status).toBe(
      403,
    );
    const accepted = await send(as("next"), "POST", "transfer/accept", { namespace: own });
    expect(await accepted.json()).toEqual({ namespace: own, ownerWallet: addressOf("next") });
    expect((await as("next")(`${APP}/api/namespace/list?namespace=${own}`)).status).toBe(200);
    const team = await (await as("next")(`${APP}/api/namespace/members?namespace=${own}`)).json();
    const previous = privateKeyToAccount(keyOf(INDEX.owner)).address;
    expect(team.owner).toBe(addressOf("next"));
    expect(team.members).toEqual([expect.objectContaining({ wallet: previous, role: "admin" })]);
    // The previous owner is an admin now: it may no longer hand the namespace on.
    expect(
      (await send(signedIn("owner"), "POST", "transfer", { namespace: own, to: addressOf("admin") })).status,
    ).toBe(403);
  });
});
