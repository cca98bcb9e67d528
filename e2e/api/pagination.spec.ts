import { expect, test } from "@playwright/test";
import { expectFieldsRefused, ids, item, register, submit, uniqueName, url, wallet } from "./fixtures";

// Pages, filters, cursors and shortened titles. This file pays only from account 5.
const owner = wallet(5);
const namespace = uniqueName("page-");

const title81 = `An eighty-one character title that list and status views must cut short${"!".repeat(10)}`;
const title80 = title81.slice(0, 80);
const seeds = [
  { type: "bug", severity: "high", title: title81 },
  { type: "feature", title: title80 },
  { type: "bug", severity: "low", title: "Crash on save" },
  { type: "feedback", severity: "high", title: "Love the app" },
  { type: "bug", severity: "high", title: "Slow search" },
];
/** Submission order; the service answers newest first. */
const submitted: string[] = [];
const newestFirst = () => [...submitted].reverse();
const byIndex = (...i: number[]) => i.map((n) => submitted[n]!);

type Page = {
  namespace?: string;
  count: number;
  feedback: { id: string; title: string }[];
  nextCursor?: string;
};
const list = async (query: string): Promise<Page> => {
  const res = await owner.read(url(`list?namespace=${namespace}${query}`));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  expect(title81).toHaveLength(81);
  await register(owner, { namespace });
  for (const seed of seeds) submitted.push((await submit(owner, item(namespace, seed))).id);
});

/** Follows nextCursor from the first page; returns every page. */
async function allPages(query: string, read = list) {
  const pages: Page[] = [await read(query)];
  while (pages.at(-1)!.nextCursor) {
    pages.push(await read(`${query}&cursor=${encodeURIComponent(pages.at(-1)!.nextCursor!)}`));
    expect(pages.length).toBeLessThan(10);
  }
  return pages;
}

test("limit=2 walks 5 items as pages of 2, 2, 1, newest first, none missing or repeated", async () => {
  const pages = await allPages("&limit=2");
  expect(pages.map((p) => p.count)).toEqual([2, 2, 1]);
  expect(pages.map((p) => p.feedback.length)).toEqual([2, 2, 1]);
  expect(pages.map((p) => p.nextCursor !== undefined)).toEqual([true, true, false]);
  expect(pages.map((p) => "nextCursor" in p)).toEqual([true, true, false]);
  expect(pages.flatMap(ids)).toEqual(newestFirst());
  expect(pages.every((p) => p.namespace === namespace)).toBe(true);
});

test("a page that exactly holds the rest has no nextCursor", async () => {
  const whole = await list("&limit=5");
  expect(whole.count).toBe(5);
  expect(whole.nextCursor).toBeUndefined();
  expect(ids(whole)).toEqual(newestFirst());
  const four = await list("&limit=4");
  expect(four.count).toBe(4);
  expect(four.nextCursor).toEqual(expect.any(String));
});

test("type and severity filter, alone, together, and across pages", async () => {
  expect(ids(await list("&type=bug"))).toEqual(byIndex(4, 2, 0));
  expect(ids(await list("&severity=high"))).toEqual(byIndex(4, 3, 0));
  expect(ids(await list("&type=bug&severity=high"))).toEqual(byIndex(4, 0));
  expect(ids(await list("&type=feature&severity=low"))).toEqual([]);
  const bugPages = await allPages("&type=bug&limit=2");
  expect(bugPages.map((p) => p.count)).toEqual([2, 1]);
  expect(bugPages.flatMap(ids)).toEqual(byIndex(4, 2, 0));
});

test("a cursor is refused with another filter or namespace, or when tampered with", async () => {
  const first = await list("&limit=2");
  const cursor = first.nextCursor!;
  const refused = async (query: string) =>
    expectFieldsRefused(await owner.read(url(`list?namespace=${namespace}&limit=2${query}`)), ["cursor"]);

  await refused(`&type=bug&cursor=${encodeURIComponent(cursor)}`);
  await refused(`&severity=high&cursor=${encodeURIComponent(cursor)}`);
  // The same cursor on the submitter's status view is refused too.
  await expectFieldsRefused(
    await owner.read(url(`status?namespace=${namespace}&cursor=${encodeURIComponent(cursor)}`)),
    ["cursor"],
  );

  const [payload, tag] = cursor.split(".") as [string, string];
  const flip = (c: string) => (c === "A" ? "B" : "A");
  await refused(`&cursor=${encodeURIComponent(`${payload}.${tag.slice(0, -1)}${flip(tag.at(-1)!)}`)}`);
  const forged = Buffer.from(JSON.stringify([Date.now() + 60_000, "fb_zzzzzzzzzzzzzzzzzzzzzz"])).toString(
    "base64url",
  );
  await refused(`&cursor=${encodeURIComponent(`${forged}.${tag}`)}`);
  await refused(`&cursor=garbage`);

  // The untouched cursor still works.
  expect(ids(await list(`&limit=2&cursor=${encodeURIComponent(cursor)}`))).toEqual(byIndex(2, 1));
});

test("a title over 80 chars shows as 77 chars + '...' in list and status, full in the record", async () => {
  const shown = (page: Page, id: string) => page.feedback.find((f) => f.id === id)!.title;
  const cut = `${title81.slice(0, 77)}...`;
  expect(cut).toHaveLength(80);

  const listed = await list("");
  expect(shown(listed, submitted[0]!)).toBe(cut);
  expect(shown(listed, submitted[1]!)).toBe(title80);

  const status = await (await owner.read(url(`status?namespace=${namespace}`))).json();
  expect(status.count).toBe(5);
  expect(shown(status, submitted[0]!)).toBe(cut);
  expect(shown(status, submitted[1]!)).toBe(title80);

  const record = await (await owner.read(url(`feedback?id=${submitted[0]}`))).json();
  expect(record.title).toBe(title81);
});

test("the submitter's status pages the same way", async () => {
  const read = async (query: string): Promise<Page> => {
    const res = await owner.read(url(`status?namespace=${namespace}${query}`));
    expect(res.status).toBe(200);
    return res.json();
  };
  const pages = await allPages("&limit=2", read);
  expect(pages.map((p) => p.count)).toEqual([2, 2, 1]);
  expect(pages.flatMap(ids)).toEqual(newestFirst());
});
