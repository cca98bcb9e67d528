/**
 * A title no other test report shares: reports with alike titles are grouped as duplicates, and
 * resolving one resolves its group, so tests that resolve reports one by one give each its own. The
 * random tail is long enough that two such titles stay well below the grouping threshold even with a
 * long prefix in common.
 */
export function distinctTitle(prefix: string): string {
  const word = () => Math.random().toString(36).slice(2, 10).padEnd(8, "q");
  return `${prefix} ${word()}${word()} ${word()}${word()}`;
}
