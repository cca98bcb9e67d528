/** A span of seconds as people read it: "45s", "12m", "3h 20m", "2d 4h" (the last unit rounded). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 24 * 60) return joined(Math.floor(minutes / 60), "h", minutes % 60, "m");
  const hours = Math.round(s / 3600);
  return joined(Math.floor(hours / 24), "d", hours % 24, "h");
}

const joined = (big: number, bigUnit: string, small: number, smallUnit: string) =>
  small === 0 ? `${big}${bigUnit}` : `${big}${bigUnit} ${small}${smallUnit}`;

const SHORT = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });
const LONG = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

/** A bucket's first day on an axis: "Nov 24". Days are UTC, as the service counts them. */
export function shortDay(day: string): string {
  return SHORT.format(new Date(`${day}T00:00:00Z`));
}

/** A bucket as a table row names it: "Nov 24, 2026", or "Week of Nov 23, 2026". */
export function bucketName(day: string, bucket: "day" | "week"): string {
  const date = LONG.format(new Date(`${day}T00:00:00Z`));
  return bucket === "week" ? `Week of ${date}` : date;
}
