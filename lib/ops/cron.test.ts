import { describe, expect, it } from "vitest";
import { parseServerEnv } from "@/lib/env";
import { APP, appFetch } from "@/testing/app-fetch";

describe("the cron trigger's configuration", () => {
  it("is off (404, a problem) while CRON_SECRET is unset, whatever the request carries", async () => {
    const res = await appFetch(`${APP}/api/cron`, { headers: { authorization: "Bearer anything-at-all" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.text()).not.toContain("anything-at-all");
  });

  it("takes a secret of 16 characters or more, and BACKGROUND_WORK on or off (on by default)", () => {
    const base = { ...process.env, CRON_SECRET: undefined, BACKGROUND_WORK: undefined };
    const defaults = parseServerEnv(base);
    expect(defaults.BACKGROUND_WORK).toBe(true);
    expect(defaults.CRON_SECRET).toBeUndefined();
    expect(parseServerEnv({ ...base, BACKGROUND_WORK: "off" }).BACKGROUND_WORK).toBe(false);
    expect(parseServerEnv({ ...base, CRON_SECRET: "s".repeat(16) }).CRON_SECRET).toBe("s".repeat(16));
    expect(() => parseServerEnv({ ...base, CRON_SECRET: "short" })).toThrow(
      /CRON_SECRET: must be at least 16 characters/,
    );
    expect(() => parseServerEnv({ ...base, BACKGROUND_WORK: "false" })).toThrow(
      /BACKGROUND_WORK: must be on or off/,
    );
  });
});
