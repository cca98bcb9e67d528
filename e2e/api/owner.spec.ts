import { expect, test } from "@playwright/test";
import { generatePrivateKey } from "viem/accounts";
import { createSignInFetch } from "../../scripts/clients/siwx-fetch";
import { signInHeader } from "../../testing/sign-in";
import {
  expectProblem,
  ISO_MS,
  ids,
  item,
  postJson,
  register,
  submit,
  uniqueName,
  url,
  wallet,
} from "./fixtures";

// Ownership, resolution and the submitter's status. Pays from accounts 3 and 4 only;
// account 7 never pays (it only signs in, as a stranger).
const owner = wallet(3);
const agent = wallet(4);
const stranger = wallet(7);

const namespace = uniqueName("own-");
const elsewhere = uniqueName("other-");
const item1 = { id: "" };
const item2 = { id: "" };
const ownersItem = { id: "" };
const elsewhereItem = { id: "" };

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  item1.id = (await submit(agent, item(namespace, { title: "First from the agent" }))).id;
  expect((await register(owner, { namespace })).existingFeedbackLinked).toBe(1);
  item2.id = (await submit(agent, item(namespace, { title: "Second from the agent", type: "feature" }))).id;
  ownersItem.id = (await submit(owner, item(namespace, { title: "The owner's own note" }))).id;
  elsewhereItem.id = (await submit(agent, item(elsewhere, { title: "Somewhere else" }))).id;
});

test("the owner lists its namespace; anyone else is refused with 403; an unregistered name is 404", async () => {
  const list = await owner.read(url(`list?namespace=${namespace}`));
  expect(list.status).toBe(200);
  expect(ids(await list.json())).toEqual([ownersItem.id, item2.id, item1.id]);

  await expectProblem(await stranger.read(url(`list?namespace=${namespace}`)), 403);
  await expectProblem(await agent.read(url(`list?namespace=${namespace}`)), 403);
  const unknown = await owner.read(url(`list?namespace=${uniqueName("nobody-")}`));
  await expectProblem(unknown, 404);
  // Feedback exists under `elsewhere`, but nobody registered it.
  await expectProblem(await agent.read(url(`list?namespace=${elsewhere}`)), 404);
});

test("a taken name is refused to another payer with 409, uncharged", async () => {
  const before = await agent.balance();
  const res = await agent.pay(url("register"), postJson({ namespace }));
  await expectProblem(res, 409);
  expect(await agent.balance()).toBe(before);
});

test("the full record is readable by the owner and the submitter only", async () => {
  const path = url(`feedback?id=${item1.id}`);
  const byOwner = await owner.read(path);
  expect(byOwner.status).toBe(200);
  const record = await byOwner.json();
  expect(record).toMatchObject({
    id: item1.id,
    namespace,
    title: "First from the agent",
    submitterWallet: agent.address,
  });
  const byAgent = await agent.read(path);
  expect(byAgent.status).toBe(200);
  // The submitter reads the same report, without the owner's view of its group, nor the owner's labels.
  const {
    group: _group,
    groupId: _groupId,
    groupKind: _groupKind,
    reportCount: _count,
    labels: _labels,
    ...own
  } = record;
  expect(await byAgent.json()).toEqual(own);
  await expectProblem(await stranger.read(path), 403);
  // The agent did not submit the owner's item and does not own the namespace.
  await expectProblem(await agent.read(url(`feedback?id=${ownersItem.id}`)), 403);
  await expectProblem(await owner.read(url("feedback?id=fb_doesnotexist0000000000")), 404);
});

test("only the owner resolves: 403 for others, 404 for an unknown id, 409 the second time", async () => {
  await expectProblem(await stranger.read(url("resolve"), postJson({ feedbackId: item1.id })), 403);
  await expectProblem(await agent.read(url("resolve"), postJson({ feedbackId: item1.id })), 403);
  await expectProblem(
    await owner.read(url("resolve"), postJson({ feedbackId: "fb_doesnotexist0000000000" })),
    404,
  );
  // Unregistered namespace: nobody owns the item, so nobody may resolve it.
  await expectProblem(await agent.read(url("resolve"), postJson({ feedbackId: elsewhereItem.id })), 403);

  const res = await owner.read(url("resolve"), postJson({ feedbackId: item1.id, message: "Fixed in 2.3" }));
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(Object.keys(body).sort()).toEqual([
    "id",
    "message",
    "namespace",
    "resolved",
    "resolvedAt",
    "resolvedBy",
  ]);
  expect(body).toMatchObject({
    id: item1.id,
    namespace,
    resolved: true,
    resolvedBy: owner.address,
    message: "Fixed in 2.3",
  });
  expect(body.resolvedAt).toMatch(ISO_MS);

  await expectProblem(
    await owner.read(url("resolve"), postJson({ feedbackId: item1.id, message: "again" })),
    409,
  );
  const record = await (await owner.read(url(`feedback?id=${item1.id}`))).json();
  expect(record).toMatchObject({
    resolved: true,
    resolveMessage: "Fixed in 2.3",
    resolvedAt: body.resolvedAt,
  });
});

test("the submitter's status shows its items with their resolution, and only its items", async () => {
  const res = await agent.read(url("status"));
  expect(res.status).toBe(200);
  const status = await res.json();
  expect(status.submitter).toBe(agent.address);
  // On a shared PostgreSQL this wallet also holds the unit tests' older items: this file's are its newest.
  expect(ids(status).slice(0, 3)).toEqual([elsewhereItem.id, item2.id, item1.id]);
  expect(status.count).toBe(ids(status).length);
  expect(ids(status)).not.toContain(ownersItem.id);

  const resolved = status.feedback.find((f: { id: string }) => f.id === item1.id);
  expect(resolved.resolved).toBe(true);
  const record = await (await agent.read(url(`feedback?id=${item1.id}`))).json();
  expect(resolved.resolution).toEqual({
    message: "Fixed in 2.3",
    resolvedAt: record.resolvedAt,
    rewardAmount: null,
    rewardTxHash: null,
  });
  const open = status.feedback.find((f: { id: string }) => f.id === item2.id);
  expect(open.resolved).toBe(false);
  expect(open.resolution).toBeUndefined();

  const filtered = await (await agent.read(url(`status?namespace=${elsewhere}`))).json();
  expect(ids(filtered)).toEqual([elsewhereItem.id]);
  expect(filtered.count).toBe(1);

  const ownStatus = await (await owner.read(url(`status?namespace=${namespace}`))).json();
  expect(ownStatus.submitter).toBe(owner.address);
  expect(ids(ownStatus)).toEqual([ownersItem.id]);

  // A wallet with no history at all: devnet wallets keep earlier suites' items on a shared PostgreSQL.
  const fresh = createSignInFetch(generatePrivateKey());
  const none = await (await fresh.fetch(url("status"))).json();
  expect(none).toEqual({ submitter: fresh.address, count: 0, feedback: [] });
});

test("a sign-in proof is accepted once; used again it is a 401", async () => {
  const target = url(`status?namespace=${namespace}`);
  const proof = await signInHeader(fetch, target, agent.privateKey);
  const first = await fetch(target, { headers: { "sign-in-with-x": proof } });
  expect(first.status).toBe(200);
  const replay = await fetch(target, { headers: { "sign-in-with-x": proof } });
  await expectProblem(replay, 401);
  // The same holds for the owner's list.
  const proof2 = await signInHeader(fetch, url(`list?namespace=${namespace}`), owner.privateKey);
  expect(
    (await fetch(url(`list?namespace=${namespace}`), { headers: { "sign-in-with-x": proof2 } })).status,
  ).toBe(200);
  await expectProblem(
    await fetch(url(`list?namespace=${namespace}`), { headers: { "sign-in-with-x": proof2 } }),
    401,
  );
  await expectProblem(await fetch(url("status"), { headers: { "sign-in-with-x": "bm90IGEgcHJvb2Y=" } }), 401);
});
