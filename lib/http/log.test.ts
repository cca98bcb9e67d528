import { describe, expect, it } from "vitest";
import { describeError } from "./log";

describe("describeError", () => {
  it("keeps the message but never a signature or a base64 header", () => {
    const signature = `0x${"ab".repeat(65)}`;
    const header = "eyJ".padEnd(400, "A");
    const line = describeError(new Error(`call failed: data ${signature} header ${header}`));
    expect(line).toContain("call failed");
    expect(line).not.toContain(signature.slice(0, 80));
    expect(line).not.toContain(header.slice(0, 130));
  });

  it("prefers a client's short message", () => {
    expect(
      describeError({ name: "HttpRequestError", shortMessage: "HTTP request failed.", message: "long" }),
    ).toBe("HttpRequestError: HTTP request failed.");
  });
});

describe("describeError of a failed query", () => {
  it("is one line naming the database's own cause, never the SQL or its parameters", () => {
    const cause = Object.assign(new Error('null value in column "payment_id" violates not-null constraint'), {
      name: "PostgresError",
      code: "23502",
    });
    const failed = Object.assign(
      new Error(
        `Failed query: insert into "feedback"\n  ("id", "title")\n  values ($1, $2)\nparams: fb_1,Call Jane on 555-0100`,
      ),
      { name: "DrizzleQueryError", cause },
    );
    const line = describeError(failed);
    expect(line).toBe(
      'PostgresError (23502): null value in column "payment_id" violates not-null constraint',
    );
    expect(line).not.toContain("\n");
    expect(line).not.toContain("555-0100");
  });
});
