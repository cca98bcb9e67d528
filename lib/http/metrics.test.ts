import { describe, expect, it } from "vitest";
import { AppError } from "./errors";
import { counter, histogram, registeredFamilies, routeLabel } from "./metrics";
import { renderExposition } from "./prometheus";
import { paidOutcome, recordPaid } from "./service-metrics";

const rendered = () => renderExposition(registeredFamilies());

describe("the metrics registry", () => {
  it("keeps one metric per name for the whole process, on globalThis", () => {
    const a = counter<"k">("test_shared_total", "Shared.");
    counter<"k">("test_shared_total", "Shared.").inc({ k: "v" }, 2);
    a.inc({ k: "v" });
    expect(rendered()).toContain('test_shared_total{k="v"} 3');
    expect((globalThis as { __feedbackMetrics?: unknown }).__feedbackMetrics).toBeDefined();
  });

  it("puts each observation in the first bucket that holds it, the rest above the last one", () => {
    const h = histogram<"p">("test_latency_seconds", "Latency.", [0.01, 0.1]);
    for (const v of [0.005, 0.01, 0.05, 2]) h.observe({ p: "x" }, v);
    const lines = rendered().split("\n");
    expect(lines).toContain('test_latency_seconds_bucket{p="x",le="0.01"} 2');
    expect(lines).toContain('test_latency_seconds_bucket{p="x",le="0.1"} 3');
    expect(lines).toContain('test_latency_seconds_bucket{p="x",le="+Inf"} 4');
    expect(lines).toContain('test_latency_seconds_count{p="x"} 4');
    expect(lines).toContain('test_latency_seconds_sum{p="x"} 2.065');
  });

  it("caps the distinct route labels so paths cannot grow series without bound", () => {
    const labels = Array.from({ length: 150 }, (_, i) => routeLabel(`/r${i}`));
    expect(labels.filter((l) => l === "other").length).toBeGreaterThan(0);
    expect(routeLabel("/r0")).toBe("/r0");
  });
});

describe("paid call outcomes", () => {
  it("reads the outcome from the answer or from the refusal", () => {
    expect(paidOutcome({ stored: true })).toBe("ok");
    expect(paidOutcome({ stored: false })).toBe("replayed");
    const outcomes = (
      [
        ["payment-required", "challenged"],
        ["payment-pending", "pending"],
        ["payment-unavailable", "unavailable"],
        ["settlement-failed", "failed"],
        ["payment-refunded", "failed"],
        ["payment-invalid", "refused"],
        ["namespace-taken", "refused"],
        ["internal", "error"],
      ] as const
    ).map(([code, outcome]) => [paidOutcome({ error: new AppError(code, "x") }), outcome]);
    for (const [got, want] of outcomes) expect(got).toBe(want);
    expect(paidOutcome({ error: new Error("boom") })).toBe("error");
  });

  it("counts every call and times the phases of those that carried a credential", () => {
    recordPaid({ operation: "feedback", protocol: "mpp", outcome: "ok" }, [
      ["verify", 12],
      ["settle", 40],
      ["total", 60],
    ]);
    recordPaid({ operation: "feedback", protocol: null, outcome: "challenged" }, [["total", 3]]);
    const text = rendered();
    expect(text).toContain(
      'feedback_paid_requests_total{operation="feedback",protocol="mpp",outcome="ok"} 1',
    );
    expect(text).toContain(
      'feedback_paid_requests_total{operation="feedback",protocol="none",outcome="challenged"} 1',
    );
    expect(text).toContain(
      'feedback_paid_phase_duration_seconds_count{operation="feedback",protocol="mpp",phase="settle"} 1',
    );
    expect(text).not.toContain('protocol="none",phase=');
  });
});
