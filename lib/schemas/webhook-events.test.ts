import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "./webhook-events";

describe("the events an owner chooses among", () => {
  it("are the ones docs/webhooks.md lists, every one and no other", () => {
    const docs = readFileSync("docs/webhooks.md", "utf8");
    const paragraph = docs.split("\n").find((line) => line.startsWith("`events` is which events"));
    expect(paragraph).toBeDefined();
    const listed = paragraph!.slice(0, paragraph!.indexOf(", every one by default")).match(/`[a-z_.]+`/g);
    expect(listed!.slice(1).map((name) => name.slice(1, -1))).toEqual([...WEBHOOK_EVENTS]);
  });
});
