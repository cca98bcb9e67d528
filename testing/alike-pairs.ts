import { readFileSync } from "node:fs";
import path from "node:path";

/** One report of a labelled pair, as an agent would submit it. */
export type PairReport = {
  type: "bug" | "feature" | "feedback";
  title: string;
  description: string;
  metadata?: { url: string };
};

/**
 * Two reports and whether an owner would call them the same issue. `a` is filed first; `members`, when
 * given, are filed after it and merged into its group by the owner before `b` arrives.
 */
export type LabelledPair = {
  a: PairReport;
  members?: PairReport[];
  b: PairReport;
  same: boolean;
  note: string;
  /**
   * Written as two people report one area in their own words ("basket" / "cart", "closes unexpectedly" /
   * "crashes"), duplicates and near misses alike: the bench reports the suggestion on these apart.
   */
  paraphrased?: boolean;
};

/** The labelled set (alike-pairs.json): true duplicates and near misses, realistic reports of several products. */
export const ALIKE_PAIRS: LabelledPair[] = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "alike-pairs.json"), "utf8"),
);

/**
 * Pairs in two people's own words written after the rule of 2026-12-07 was fixed (alike-pairs-held-out.json), and
 * never tuned on: the bench reports the rule on these apart, as a check on fitting to the labelled set.
 */
export const HELD_OUT_PAIRS: LabelledPair[] = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "alike-pairs-held-out.json"), "utf8"),
);
