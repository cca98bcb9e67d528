/**
 * How many test files run at once in each vitest project (vitest.config.ts), each worker on a database
 * (and devnet) of its own. Two: the machine CI runs on has two cores, and a file mostly keeps one busy.
 */
export const TEST_WORKERS = Number(process.env.TEST_WORKERS ?? "2");
