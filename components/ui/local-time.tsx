import { useSyncExternalStore } from "react";
import { formatDateTime, timeAgo } from "../format";

const never = () => () => {};

/**
 * A timestamp in the reader's time zone and locale. The server cannot know either, so it renders a
 * neutral UTC form; the browser swaps in the local one right after hydration, without a mismatch.
 */
export function LocalTime({ iso, relative = false }: { iso: string | null; relative?: boolean }) {
  const inBrowser = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  if (!iso) return <>—</>;
  const text = inBrowser
    ? relative
      ? timeAgo(iso)
      : formatDateTime(iso)
    : `${iso.slice(0, 16).replace("T", " ")} UTC`;
  return (
    <time dateTime={iso} title={inBrowser ? formatDateTime(iso) : undefined}>
      {text}
    </time>
  );
}
