/**
 * What a failed step's log says went wrong, short enough to repeat as the run's last lines: a CI system that
 * keeps only the end of a run's output then still shows which tests failed and why, even when the failed
 * step's whole log was printed minutes earlier, before a step that ran beside it.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences colours are written with
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Where a runner's failure details begin: Playwright's numbered failures, vitest's failed files or tests. */
const DETAILS = [/^\s{2}\d+\) \[/, /^⎯+ Failed (Tests|Suites) \d+ ⎯+$/];
/** Lines that name a failure wherever they stand: Playwright's list reporter's ✘, vitest's FAIL and ×. */
const MARKS = [/^\s*✘\s/, /^\s*(FAIL|×)\s/];

/**
 * The failure's lines: from where the runner's details begin to the end, or, where it printed none (a
 * crash, a setup that threw), the lines naming failures and the log's last lines. At most `max` lines,
 * the head of the details (the first error) and their tail (the count of failures) kept.
 */
export function failureSummary(log: string, max = 60): string[] {
  const lines = log
    .replace(ANSI, "")
    .split("\n")
    .map((line) => line.trimEnd());
  const start = lines.findIndex((line) => DETAILS.some((re) => re.test(line)));
  let picked: string[];
  if (start >= 0) picked = lines.slice(start);
  else {
    const marked = lines.filter((line) => MARKS.some((re) => re.test(line)));
    picked = [...marked, ...(marked.length ? ["…"] : []), ...lines.slice(-20)];
  }
  picked = picked.filter((line, i) => line !== "" || (picked[i - 1] ?? "") !== "");
  while (picked.length && picked[0] === "") picked.shift();
  while (picked.length && picked.at(-1) === "") picked.pop();
  if (picked.length <= max) return picked;
  const tail = Math.floor(max / 4);
  const head = max - tail - 1;
  return [
    ...picked.slice(0, head),
    `… ${picked.length - head - tail} lines more in the step's log …`,
    ...picked.slice(-tail),
  ];
}
