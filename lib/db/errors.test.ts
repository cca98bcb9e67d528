import { describe, expect, it } from "vitest";
import {
  databaseUnreachableCode,
  isRetryableConflict,
  retryingConflicts,
  SQLSTATE,
  sqlStateOf,
} from "./errors";

/** A driver error as drizzle wraps it: the SQLSTATE sits on the cause. */
const dbError = (code: string) =>
  Object.assign(new Error("Failed query"), { cause: Object.assign(new Error(code), { code }) });
const noSleep = async () => {};

describe("a transaction that lost a race", () => {
  it("reads the SQLSTATE through drizzle's wrapping and knows which codes mean a race", () => {
    expect(sqlStateOf(dbError("40001"))).toBe("40001");
    expect(isRetryableConflict(dbError(SQLSTATE.serializationFailure))).toBe(true);
    expect(isRetryableConflict(dbError(SQLSTATE.deadlockDetected))).toBe(true);
    expect(isRetryableConflict(dbError(SQLSTATE.uniqueViolation))).toBe(false);
    expect(isRetryableConflict(new Error("connection reset"))).toBe(false);
  });

  it("runs again after a serialization failure or a deadlock, and answers the attempt that commits", async () => {
    const failures = [dbError("40001"), dbError("40P01")];
    const retried: string[] = [];
    let runs = 0;
    const result = await retryingConflicts(
      async () => {
        runs++;
        const failure = failures.shift();
        if (failure) throw failure;
        return "committed";
      },
      { sleep: noSleep, onRetry: (code) => retried.push(code) },
    );
    expect(result).toBe("committed");
    expect(runs).toBe(3);
    expect(retried).toEqual(["40001", "40P01"]);
  });

  it("never runs again after any other error: a unique key refusal is an answer, not a race", async () => {
    let runs = 0;
    const unique = dbError("23505");
    await expect(
      retryingConflicts(
        async () => {
          runs++;
          throw unique;
        },
        { sleep: noSleep },
      ),
    ).rejects.toBe(unique);
    expect(runs).toBe(1);
  });

  it("gives up after its attempts and throws the last failure", async () => {
    let runs = 0;
    const sleeps: number[] = [];
    await expect(
      retryingConflicts(
        async () => {
          runs++;
          throw dbError("40001");
        },
        { attempts: 4, sleep: async (ms) => void sleeps.push(ms) },
      ),
    ).rejects.toMatchObject({ cause: { code: "40001" } });
    expect(runs).toBe(4);
    // Full jitter under a doubling cap: 4, 8, 16 ms at most.
    expect(sleeps).toHaveLength(3);
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(4 * 2 ** i);
    });
  });

  it("runs a retried transaction inside a retried store no more times than one retry would", async () => {
    let runs = 0;
    const inner = () =>
      retryingConflicts(
        async () => {
          runs++;
          throw dbError("40001");
        },
        { attempts: 3, sleep: noSleep },
      );
    await expect(retryingConflicts(inner, { attempts: 3, sleep: noSleep })).rejects.toMatchObject({
      cause: { code: "40001" },
    });
    expect(runs).toBe(3);
  });
});

describe("a database that cannot be reached", () => {
  it("is told apart from a statement that failed, through drizzle's wrapping, by the code to log", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(databaseUnreachableCode(refused)).toBe("ECONNREFUSED");
    expect(databaseUnreachableCode(dbError("57P01"))).toBe("57P01"); // the server shutting down
    expect(databaseUnreachableCode(dbError("08006"))).toBe("08006"); // a connection lost mid-statement
    expect(databaseUnreachableCode(dbError("53300"))).toBe("53300"); // too many connections
    // Node's happy-eyeballs connect: an AggregateError of each address's refusal.
    const both = new AggregateError([refused, Object.assign(new Error("::1"), { code: "ECONNREFUSED" })]);
    expect(databaseUnreachableCode(new Error("Failed query", { cause: both }))).toBe("ECONNREFUSED");
    const closed = Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" });
    expect(databaseUnreachableCode(new Error("Failed query", { cause: closed }))).toBe("CONNECTION_CLOSED");
    for (const code of [SQLSTATE.uniqueViolation, SQLSTATE.serializationFailure, "42P01", "22P02"]) {
      expect(databaseUnreachableCode(dbError(code))).toBeUndefined();
    }
    expect(databaseUnreachableCode(new Error("anything"))).toBeUndefined();
  });
});
