/** 0x1234…abcd */
export function shortAddress(address: string | null | undefined): string {
  if (!address) return "—";
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** A date and time in the reader's locale. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );
}

/** "now", "5m", "3h", "2d", then the date. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return "now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  if (seconds < 30 * 86_400) return `${Math.floor(seconds / 86_400)}d`;
  return new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" }).format(new Date(iso));
}

// One locale on the server and in the browser: a count rendered on the server must read the same when the
// page hydrates, whatever the reader's locale ("1,234" against "1.234" is a hydration mismatch).
const COUNT = new Intl.NumberFormat("en-US");

/** A whole number with thousands separators, the same wherever it is rendered. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
