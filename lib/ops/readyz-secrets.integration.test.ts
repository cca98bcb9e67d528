import { like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { instances } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { APP, appFetch } from "@/testing/app-fetch";
import { secretDigests } from "./instances";

// Two instances on one database whose MPP_SECRET_KEY differs refuse each other's MPP challenges: half the MPP
// payments fail. The instance's readiness says so, naming the variable, with MPP out, and stays in rotation for
// everything else (the other instance sees the same mismatch; neither is taken out for it).
afterAll(async () => {
  await (await getDb()).delete(instances).where(like(instances.id, "readyz-test-%"));
});

describe("readiness and the shared secrets", () => {
  it("is degraded with MPP out while a live instance runs another MPP_SECRET_KEY", async () => {
    const db = await getDb();
    const seen = new Date();
    const mine = await secretDigests(env());
    await db.insert(instances).values({
      id: "readyz-test-other",
      role: "web",
      host: "other-host",
      pid: 4242,
      startedAt: seen,
      seenAt: seen,
      secrets: { ...mine, MPP_SECRET_KEY: "0".repeat(32) },
    });
    const res = await appFetch(`${APP}/readyz`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe("degraded");
    expect(body.protocols).toMatchObject({ mpp: false, x402: true });
    expect(body.checks.sharedSecrets).toMatchObject({
      ok: false,
      error: expect.stringContaining("MPP_SECRET_KEY"),
    });
    expect(JSON.stringify(body)).not.toContain("other-host");
  });
});
