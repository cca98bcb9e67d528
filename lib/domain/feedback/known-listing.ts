/**
 * What every owner action that looks at an item writes (a status change, a resolve, a merge into it, a label,
 * an explicit listing): once its namespace publishes its known issues, the item may be listed. A report filed
 * after publishing waits for one of these, since its title is a stranger's words (known-issues.ts).
 */
export const SEEN_BY_OWNER = { knownListed: true } as const;
