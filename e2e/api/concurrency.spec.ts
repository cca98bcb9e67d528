import { expect, test } from "@playwright/test";
import {
  challenge,
  decodeRequired,
  expectSettled,
  ids,
  item,
  PRICE,
  postJson,
  uniqueName,
  url,
  wallet,
} from "./fixtures";

// Parallel copies of one payment, and payers racing for one name. Pays from accounts 6 and 7 only
// (owner.spec.ts signs in with 7 but never pays from it).
const agent = wallet(6);
const rival = wallet(7);

test("20 parallel copies of one signed payment: one item, one charge, every copy answered by it", async () => {
  const namespace = uniqueName("dup-");
  const body = item(namespace, { title: "Sent twenty times at once" });
  const signature = await agent.sign(await challenge("feedback", body));
  const before = await agent.balance();

  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      fetch(url("feedback"), postJson(body, { "payment-signature": signature })),
    ),
  );
  const statuses = results.map((r) => r.status);
  const winners = results.filter((r) => r.status === 200);
  expect(winners.length, `statuses: ${statuses.join(",")}`).toBeGreaterThanOrEqual(1);
  // A copy that arrives while the first is in flight is told so (503, its payment id, do not re-sign);
  // one that arrives after it gets its answer.
  for (const waiting of results.filter((r) => r.status !== 200)) {
    expect(waiting.status, statuses.join(",")).toBe(503);
    expect(waiting.headers.get("content-type")).toBe("application/problem+json");
    expect(await waiting.json()).toMatchObject({ paymentId: expect.stringMatching(/^pay_/) });
  }
  const answers = await Promise.all(winners.map((w) => w.json()));
  expect(new Set(answers.map((a) => a.id)).size).toBe(1);
  await expectSettled(winners[0]!, agent.address, PRICE.feedback);
  const created = answers[0]!;
  expect(await agent.balance()).toBe(before - PRICE.feedback);

  const status = await (await agent.read(url(`status?namespace=${namespace}`))).json();
  expect(status.count).toBe(1);
  expect(ids(status)).toEqual([created.id]);

  // Later copies of the same credential get the same answer and buy nothing more.
  const late = await fetch(url("feedback"), postJson(body, { "payment-signature": signature }));
  expect(late.status).toBe(200);
  expect((await late.json()).id).toBe(created.id);
  expect(await agent.balance()).toBe(before - PRICE.feedback);
});

test("two payers racing to register one name: one owner, the other refused uncharged", async () => {
  const namespace = uniqueName("race-");
  const payers = [agent, rival];
  const before = await Promise.all(payers.map((p) => p.balance()));
  const results = await Promise.all(payers.map((p) => p.pay(url("register"), postJson({ namespace }))));
  const statuses = results.map((r) => r.status).sort();
  expect(statuses).toEqual([200, 409]);

  const w = results.findIndex((r) => r.status === 200);
  const winner = payers[w]!;
  const loser = payers[1 - w]!;
  await expectSettled(results[w]!, winner.address, PRICE.register);
  expect((await results[w]!.json()).ownerWallet).toBe(winner.address);
  expect(await winner.balance()).toBe(before[w]! - PRICE.register);
  expect(await loser.balance()).toBe(before[1 - w]!);

  expect((await winner.read(url(`list?namespace=${namespace}`))).status).toBe(200);
  expect((await loser.read(url(`list?namespace=${namespace}`))).status).toBe(403);
});

test("10 parallel distinct payments from one wallet all settle, each exactly once", async () => {
  const namespace = uniqueName("par-");
  const before = await agent.balance();
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      agent.pay(url("feedback"), postJson(item(namespace, { title: `Parallel item ${i}` }))),
    ),
  );
  expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
  const txs = new Set<string>();
  for (const res of results) {
    const settled = await expectSettled(res, agent.address, PRICE.feedback);
    txs.add(settled.transaction);
  }
  expect(txs.size).toBe(10);
  expect(await agent.balance()).toBe(before - 10n * PRICE.feedback);
  const status = await (await agent.read(url(`status?namespace=${namespace}`))).json();
  expect(status.count).toBe(10);
  expect(new Set(ids(status)).size).toBe(10);
});

test("an unpaid challenge is the same for concurrent askers and carries no state", async () => {
  const body = item(uniqueName());
  const headers = await Promise.all(Array.from({ length: 5 }, () => challenge("feedback", body)));
  const accepts = headers.map((h) => decodeRequired(h).accepts);
  for (const a of accepts) expect(a).toEqual(accepts[0]);
});
