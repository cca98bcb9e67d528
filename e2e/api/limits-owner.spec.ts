import { expect, test } from "@playwright/test";
import {
  expectFieldsRefused,
  expectProblem,
  item,
  postJson,
  register,
  s,
  submit,
  uniqueName,
  url,
  wallet,
} from "./fixtures";

// Contract section 8 for register, resolve and list. This file pays only from account 2.
const owner = wallet(2);

test.describe("register limits", () => {
  test("names of 3 and of 30 characters are registered; a 500-char description is accepted", async () => {
    const before = await owner.balance();
    const three = uniqueName("", 3);
    expect((await register(owner, { namespace: three })).namespace).toBe(three);
    const thirty = uniqueName("a-", 30);
    expect(thirty).toHaveLength(30);
    const body = await register(owner, { namespace: thirty, description: s(500) });
    expect(body).toMatchObject({ namespace: thirty, ownerWallet: owner.address, existingFeedbackLinked: 0 });
    expect(await owner.balance()).toBe(before - 2_000_000n);
  });

  const refused: Array<[string, Record<string, unknown>, string]> = [
    ["a 2-char name", { namespace: uniqueName("", 2) }, "namespace"],
    ["a 31-char name", { namespace: uniqueName("", 31) }, "namespace"],
    ["an uppercase name", { namespace: "Acme-app" }, "namespace"],
    ["a leading hyphen", { namespace: "-acme-app" }, "namespace"],
    ["a trailing hyphen", { namespace: "acme-app-" }, "namespace"],
    ["an underscore", { namespace: "acme_app" }, "namespace"],
    ["a dot", { namespace: "acme.com" }, "namespace"],
    ["a 501-char description", { namespace: uniqueName(), description: s(501) }, "description"],
    [
      "a webhookUrl that is not http(s)",
      { namespace: uniqueName(), webhookUrl: "ftp://h.example" },
      "webhookUrl",
    ],
    ["an unknown field", { namespace: uniqueName(), owner: "me" }, "owner"],
  ];
  for (const [name, body, field] of refused) {
    test(`${name} → 400 naming ${field}, uncharged`, async () => {
      const before = await owner.balance();
      const res = await owner.pay(url("register"), postJson(body));
      await expectFieldsRefused(res, [field]);
      expect(res.headers.get("payment-response")).toBeNull();
      expect(await owner.balance()).toBe(before);
    });
  }

  test("a non-JSON body → 400, a text/plain body → 415, an oversized body → 413, all uncharged", async () => {
    const before = await owner.balance();
    const post = (type: string, body: string) =>
      owner.pay(url("register"), { method: "POST", headers: { "content-type": type }, body });
    await expectProblem(await post("application/json", "namespace=abc"), 400);
    await expectProblem(await post("text/plain", JSON.stringify({ namespace: uniqueName() })), 415);
    await expectProblem(
      await post("application/json", JSON.stringify({ namespace: uniqueName(), description: s(270_000) })),
      413,
    );
    expect(await owner.balance()).toBe(before);
  });
});

test.describe("resolve and list limits", () => {
  const namespace = uniqueName("lim-");
  let feedbackId = "";
  let second = "";

  test.beforeAll(async () => {
    await register(owner, { namespace });
    feedbackId = (await submit(owner, item(namespace))).id;
    second = (await submit(owner, item(namespace))).id;
  });

  test("a resolve message of 2000 chars is accepted and stored", async () => {
    const res = await owner.read(url("resolve"), postJson({ feedbackId, message: s(2000, "m") }));
    expect(res.status).toBe(200);
    expect((await res.json()).message).toBe(s(2000, "m"));
    const record = await (await owner.read(url(`feedback?id=${feedbackId}`))).json();
    expect(record.resolveMessage).toBe(s(2000, "m"));
  });

  test("a resolve message of 2001 chars → 400 naming message, item left open", async () => {
    const res = await owner.read(url("resolve"), postJson({ feedbackId: second, message: s(2001) }));
    await expectFieldsRefused(res, ["message"]);
    const record = await (await owner.read(url(`feedback?id=${second}`))).json();
    expect(record.resolved).toBe(false);
  });

  test("an empty feedbackId → 400; a reward is priced at the reward, up to 2 USD", async () => {
    await expectFieldsRefused(await owner.read(url("resolve"), postJson({ feedbackId: "" })), ["feedbackId"]);
    const reward = await fetch(url("resolve"), postJson({ feedbackId: second, rewardAmount: "2" }));
    const problem = await expectProblem(reward, 402);
    expect((problem as unknown as { price: unknown }).price).toEqual({ amount: "2", currency: "USD" });
    for (const rewardAmount of ["2.000001", "1e1", "0.1234567"]) {
      await expectFieldsRefused(await fetch(url("resolve"), postJson({ feedbackId: second, rewardAmount })), [
        "rewardAmount",
      ]);
    }
  });

  test("list limit 100 is accepted, 101 and 0 are refused naming limit", async () => {
    const ok = await owner.read(url(`list?namespace=${namespace}&limit=100`));
    expect(ok.status).toBe(200);
    expect((await ok.json()).count).toBe(2);
    for (const limit of ["101", "0", "-1", "1.5", "ten"]) {
      await expectFieldsRefused(await owner.read(url(`list?namespace=${namespace}&limit=${limit}`)), [
        "limit",
      ]);
    }
    await expectFieldsRefused(await owner.read(url(`status?limit=101`)), ["limit"]);
    await expectFieldsRefused(await owner.read(url(`list?namespace=${namespace}&type=question`)), ["type"]);
    await expectFieldsRefused(await owner.read(url(`list?namespace=${namespace}&severity=urgent`)), [
      "severity",
    ]);
  });
});
