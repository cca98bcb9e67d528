/**
 * A title no other test report shares: alike titles are grouped and resolving one resolves its group, so
 * tests resolving reports one by one give each its own. The random tail keeps two such titles well below the
 * grouping threshold, even with a long prefix in common.
 */
export function distinctTitle(prefix: string): string {
  const word = () => Math.random().toString(36).slice(2, 10).padEnd(8, "q");
  return `${prefix} ${word()}${word()} ${word()}${word()}`;
}
