import { eq, getTableColumns } from "drizzle-orm";
import { describe, expect } from "vitest";
import { param, withFlatRows } from "@/lib/db/prepared";
import { feedback, namespaces } from "@/lib/db/schema";
import { insertItem, insertNamespace, ref } from "@/testing/db-rows";
import { rolledBack } from "@/testing/rollback";
import type { DbOrTx } from "./client";

const { search: _search, ...columns } = getTableColumns(feedback);

// The same statement twice: drizzle's own mapping, and the loop withFlatRows builds.
const pair = (db: DbOrTx, name: string) => {
  const build = () =>
    db
      .select(columns)
      .from(feedback)
      .where(eq(feedback.namespace, param("namespace")));
  return {
    drizzle: build().prepare(`${name}_drizzle`),
    flat: withFlatRows(build().prepare(`${name}_flat`)),
  };
};

describe("prepared selects mapped by a flat loop", () => {
  rolledBack("answer exactly what drizzle's mapping answers, every column filled or empty", async (db) => {
    const namespace = ref("ns");
    await insertItem(db, {
      namespace,
      severity: "critical",
      steps: ["open", "click 'Save'", "✓ unicode"],
      expected: "saved",
      actual: "crashed",
      context: "x".repeat(5_000),
      metadata: { nested: { list: [1, "two", null, true] }, n: 1.5 },
      targets: [{ kind: "domain", value: "example.com", host: "example.com" }],
      verified: true,
      submitterDid: "did:pkh:eip155:1:0xabc",
      submitterWallet: "0x0000000000000000000000000000000000000001",
      resolved: true,
      status: "resolved",
      resolveMessage: "Fixed",
      resolvedAt: new Date("2026-11-02T03:04:05.678Z"),
      resolvedBy: "0x0000000000000000000000000000000000000002",
      rewardAmount: "0.5",
      rewardTxHash: `0x${"ab".repeat(32)}`,
      reportCount: 3,
      labels: ["ui", "urgent"],
      groupedAt: new Date("2026-11-03T00:00:00.001Z"),
      createdAt: new Date("2026-11-01T00:00:00.999Z"),
    });
    await insertItem(db, { namespace, createdAt: new Date("2026-11-01T00:00:01Z") });

    const { drizzle, flat } = pair(db, "flat_rows_test");
    const expected = await drizzle.execute({ namespace });
    const rows = await flat.execute({ namespace });
    expect(expected).toHaveLength(2);
    expect(rows).toEqual(expected);
    // Same types, not just equal-looking values: dates are Dates, jsonb is parsed, arrays are arrays.
    const full = rows.find((r) => r.severity === "critical")!;
    expect(full.resolvedAt).toBeInstanceOf(Date);
    expect(full.metadata).toEqual({ nested: { list: [1, "two", null, true] }, n: 1.5 });
    expect(full.labels).toEqual(["ui", "urgent"]);
  });

  rolledBack("leave a joined or nested selection to drizzle", async (db) => {
    const name = ref("ns");
    await insertNamespace(db, { name, ownerWallet: "0x0000000000000000000000000000000000000003" });
    await insertItem(db, { namespace: name });
    const nested = db
      .select({ item: { id: feedback.id }, owner: namespaces.ownerWallet })
      .from(feedback)
      .leftJoin(namespaces, eq(namespaces.name, feedback.namespace))
      .where(eq(feedback.namespace, param("namespace")))
      .prepare("flat_rows_nested_test");
    const kept = withFlatRows(nested);
    expect((kept as unknown as { customResultMapper?: unknown }).customResultMapper).toBeUndefined();
    expect(await kept.execute({ namespace: name })).toEqual([
      { item: { id: expect.any(String) }, owner: "0x0000000000000000000000000000000000000003" },
    ]);
  });
});
