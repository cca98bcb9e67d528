import { expect, test } from "@playwright/test";
import {
  expectFieldsRefused,
  expectProblem,
  item,
  postJson,
  s,
  submit,
  uniqueName,
  url,
  wallet,
} from "./fixtures";

// Contract section 8, feedback body: at the limit (paid, 200) and one past it (400, uncharged).
// This file pays only from account 1.
const agent = wallet(1);

test.describe("feedback limits: accepted at the limit", () => {
  test("every upper limit at once is stored in full", async () => {
    const before = await agent.balance();
    const body = {
      namespace: uniqueName("max-", 30),
      type: "bug",
      // 200 characters that are 400 UTF-16 units: lengths count characters.
      title: "😀".repeat(200),
      description: s(10_000, "d"),
      severity: "critical",
      steps: Array.from({ length: 20 }, (_, i) => s(500, String.fromCharCode(97 + i))),
      expected: s(2000, "e"),
      actual: s(2000, "a"),
      context: s(50_000, "c"),
      metadata: { nested: { any: ["thing", 1, null, true] } },
    };
    expect(body.namespace).toHaveLength(30);
    const created = await submit(agent, body);
    expect(created.namespace).toBe(body.namespace);
    expect(await agent.balance()).toBe(before - 10_000n);

    const record = await (await agent.read(url(`feedback?id=${created.id}`))).json();
    expect(record).toMatchObject({
      id: created.id,
      namespace: body.namespace,
      type: "bug",
      title: body.title,
      description: body.description,
      severity: "critical",
      steps: body.steps,
      expected: body.expected,
      actual: body.actual,
      context: body.context,
      metadata: body.metadata,
      createdAt: created.createdAt,
      submitterWallet: agent.address,
      resolved: false,
    });
  });

  test("every lower limit at once is accepted, optional fields stored as null", async () => {
    const namespace = uniqueName("", 3);
    const created = await submit(agent, { namespace, type: "feature", title: "abc", description: s(10) });
    expect(created.namespace).toBe(namespace);
    const record = await (await agent.read(url(`feedback?id=${created.id}`))).json();
    expect(record).toMatchObject({
      title: "abc",
      description: s(10),
      severity: null,
      steps: null,
      expected: null,
      actual: null,
      context: null,
      metadata: null,
      verified: false,
      submitterDid: null,
      resolveMessage: null,
      rewardAmount: null,
      resolvedAt: null,
      resolvedBy: null,
      rewardTxHash: null,
    });
  });
});

const ns = uniqueName();
// Each refused case is its own request, so each field is shown refused by itself.
const onePast: Array<[string, Record<string, unknown>, string]> = [
  ["namespace of 2 chars", { namespace: "ab" }, "namespace"],
  ["namespace of 31 chars", { namespace: uniqueName("", 31) }, "namespace"],
  ["title of 2 chars", { title: "ab" }, "title"],
  ["title of 201 chars", { title: "😀".repeat(201) }, "title"],
  ["description of 9 chars", { description: s(9) }, "description"],
  ["description of 10001 chars", { description: s(10_001) }, "description"],
  ["21 steps", { namespace: ns, steps: Array(21).fill("step") }, "steps"],
  ["a step of 501 chars", { steps: ["ok", s(501)] }, "steps.1"],
  ["expected of 2001 chars", { expected: s(2001) }, "expected"],
  ["actual of 2001 chars", { actual: s(2001) }, "actual"],
  ["context of 50001 chars", { context: s(50_001) }, "context"],
  ["an unknown type", { type: "question" }, "type"],
  ["an unknown severity", { severity: "urgent" }, "severity"],
  ["metadata that is not an object", { metadata: ["a", "b"] }, "metadata"],
  ["an unknown field", { severty: "low" }, "severty"],
  ["a missing title", { title: undefined }, "title"],
];

test.describe("feedback limits: refused one past the limit, before any charge", () => {
  for (const [name, patch, field] of onePast) {
    test(`${name} → 400 naming ${field}`, async () => {
      const before = await agent.balance();
      const res = await agent.pay(url("feedback"), postJson({ ...item(ns), ...patch }));
      const problem = await expectFieldsRefused(res, [field]);
      expect(problem.title).toBe("Validation failed");
      expect(res.headers.get("payment-response")).toBeNull();
      expect(await agent.balance()).toBe(before);
    });
  }

  test("all missing required fields are named at once", async () => {
    const res = await agent.pay(url("feedback"), postJson({}));
    await expectFieldsRefused(res, ["description", "namespace", "title", "type"]);
  });
});

test.describe("feedback body format, before any charge", () => {
  const cases: Array<[string, RequestInit, number]> = [
    ["a body that is not JSON", { headers: { "content-type": "application/json" }, body: "{not json" }, 400],
    ["an empty body", { headers: { "content-type": "application/json" }, body: "" }, 400],
    [
      "a JSON body sent as text/plain",
      { headers: { "content-type": "text/plain" }, body: JSON.stringify(item(ns)) },
      415,
    ],
    [
      "a form-encoded body",
      { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "namespace=abc" },
      415,
    ],
    [
      "a body over 256 KiB",
      {
        headers: { "content-type": "application/json" },
        body: JSON.stringify(item(ns, { context: s(300_000) })),
      },
      413,
    ],
  ];
  for (const [name, init, status] of cases) {
    test(`${name} → ${status}`, async () => {
      const before = await agent.balance();
      const res = await agent.pay(url("feedback"), { method: "POST", ...init });
      await expectProblem(res, status);
      expect(await agent.balance()).toBe(before);
    });
  }

  test("a JSON body that is not an object → 400", async () => {
    const res = await agent.pay(url("feedback"), postJson(["namespace", ns]));
    await expectProblem(res, 400);
  });
});
