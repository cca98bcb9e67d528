import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "@/lib/db/client";
import { feedback, namespaces } from "@/lib/db/schema";
import { listOwnedNamespaces } from "@/lib/domain/namespace/list-owned-namespaces";
import { listQuerySchema } from "@/lib/schemas/list";
import { countFeedback } from "./count-feedback";
import { listFeedback } from "./list-feedback";

const OWNER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
let db: Db;
let close: () => Promise<void>;

const rows = [
  {
    type: "bug",
    title: "Checkout crashes",
    description: "Pay does nothing on 100% of tries",
    resolved: false,
  },
  { type: "bug", title: "Login loop", description: "Redirects forever after SSO", resolved: true },
  {
    type: "feature",
    title: "Dark mode",
    description: "Please add a dark theme to the CHECKOUT page",
    resolved: false,
  },
  {
    type: "feedback",
    title: "Nice docs",
    description: "The docs about under_scores are clear",
    resolved: false,
  },
] as const;

beforeAll(async () => {
  ({ db, close } = await openDb({ dataDir: "memory://" }));
  await db.insert(namespaces).values([
    { name: "acme-app", ownerWallet: OWNER, paymentId: "pay-ns-1", createdAt: new Date() },
    { name: "empty-app", ownerWallet: OWNER.toLowerCase(), paymentId: "pay-ns-2", createdAt: new Date() },
    { name: "not-mine", ownerWallet: OTHER, paymentId: "pay-ns-3", createdAt: new Date() },
  ]);
  await db.insert(feedback).values(
    rows.map((r, i) => ({
      ...r,
      status: r.resolved ? ("resolved" as const) : ("open" as const),
      id: `fb_${i}`,
      namespace: "acme-app",
      targets: [],
      paymentId: `pay-fb-${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    })),
  );
});
afterAll(() => close());

const list = (query: Record<string, string>) =>
  listFeedback(OWNER, listQuerySchema.parse({ namespace: "acme-app", ...query }), db);
const ids = async (query: Record<string, string>) => (await list(query)).feedback.map((f) => f.id);

describe("inbox filters", () => {
  it("filters open and resolved items", async () => {
    expect(await ids({ resolved: "false" })).toEqual(["fb_3", "fb_2", "fb_0"]);
    expect(await ids({ resolved: "true" })).toEqual(["fb_1"]);
    expect(await ids({})).toEqual(["fb_3", "fb_2", "fb_1", "fb_0"]);
  });

  it("searches title and description, case-insensitively, with % and _ taken literally", async () => {
    expect(await ids({ q: "checkout" })).toEqual(["fb_2", "fb_0"]);
    expect(await ids({ q: "100%" })).toEqual(["fb_0"]);
    expect(await ids({ q: "under_scores" })).toEqual(["fb_3"]);
    expect(await ids({ q: "under%" })).toEqual([]);
    expect(await ids({ q: "checkout", type: "bug", resolved: "false" })).toEqual(["fb_0"]);
  });

  it("refuses a cursor from a query with other filters", async () => {
    const page = await list({ limit: "1", q: "checkout" });
    expect(page.nextCursor).toBeDefined();
    expect(await ids({ limit: "1", q: "checkout", cursor: page.nextCursor! })).toEqual(["fb_0"]);
    await expect(list({ limit: "1", q: "checkou", cursor: page.nextCursor! })).rejects.toMatchObject({
      status: 400,
    });
    await expect(list({ limit: "1", cursor: page.nextCursor! })).rejects.toMatchObject({ status: 400 });
    await expect(
      list({ limit: "1", q: "checkout", resolved: "false", cursor: page.nextCursor! }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("rejects filter values it does not know", () => {
    expect(listQuerySchema.safeParse({ namespace: "acme-app", resolved: "yes" }).success).toBe(false);
    expect(listQuerySchema.safeParse({ namespace: "acme-app", q: "" }).success).toBe(false);
  });
});

describe("dashboard reads", () => {
  it("lists the wallet's namespaces with open and total counts, whatever the address case", async () => {
    const owned = await listOwnedNamespaces(OWNER.toLowerCase(), db);
    expect(owned.namespaces.map((n) => [n.namespace, n.unresolved, n.total])).toEqual([
      ["acme-app", 3, 4],
      ["empty-app", 0, 0],
    ]);
  });

  it("counts items per type, open and resolved, for the owner only", async () => {
    const counts = await countFeedback(OWNER, "acme-app", db);
    expect(counts.byType).toEqual({
      bug: { open: 1, resolved: 1 },
      feature: { open: 1, resolved: 0 },
      feedback: { open: 1, resolved: 0 },
    });
    expect(counts.total).toEqual({ open: 3, resolved: 1 });
    expect(counts.labels).toEqual([]);
    await expect(countFeedback(OWNER, "not-mine", db)).rejects.toMatchObject({ status: 403 });
    await expect(countFeedback(OWNER, "nobody-app", db)).rejects.toMatchObject({ status: 404 });
  });
});
