import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bazaarExtension } from "./discovery";
import type { Charge } from "./types";

const input = z.object({ title: z.string().min(1).describe("What went wrong"), count: z.number().int() });
const output = z.object({ id: z.string().describe("The item's id") });

const charge: Charge = {
  operation: "submit",
  method: "POST",
  amountMicroUsd: 10_000n,
  resourceUrl: "https://feedback.example/api/namespace/feedback",
  description: "Submit feedback",
  discovery: {
    input: { example: { title: "Crash", count: 1 }, schema: input },
    output: { example: { id: "fb_1" }, schema: output },
  },
};

/** Every JSON Schema the extension carries, wherever it nests them. */
function schemasIn(value: unknown, found: Array<Record<string, unknown>> = []) {
  if (typeof value !== "object" || value === null) return found;
  const record = value as Record<string, unknown>;
  if (record.type === "object" && typeof record.properties === "object") found.push(record);
  for (const child of Object.values(record)) schemasIn(child, found);
  return found;
}

describe("the x402 Bazaar extension of a 402", () => {
  it("carries the route's input and output schemas, without their descriptions", () => {
    const extension = bazaarExtension(charge);
    const text = JSON.stringify(extension);
    expect(text).not.toContain("What went wrong");
    const properties = schemasIn(extension).map((s) => Object.keys(s.properties as object).sort());
    expect(properties).toContainEqual(["count", "title"]);
    expect(properties).toContainEqual(["id"]);
  });

  it("is the same for every 402 of a route, and none can change the next", () => {
    const first = bazaarExtension(charge)!;
    const again = bazaarExtension(charge)!;
    expect(again).toEqual(first);
    // A schema converted once is handed out as a copy: changing one 402's extension leaves the next alone.
    for (const schema of schemasIn(first)) schema.properties = {};
    expect(bazaarExtension(charge)).toEqual(again);
  });

  it("is absent for a charge that declares nothing", () => {
    expect(bazaarExtension({ ...charge, discovery: undefined })).toBeUndefined();
  });
});
