import { useEffect, useEffectEvent } from "react";

/** How far before the end the next page starts loading, so its rows are usually there before the reader. */
const AHEAD = "400px";
// Keys that scroll down; j moves down the inbox (use-list-keys.ts).
const DOWN_KEYS = new Set(["ArrowDown", "PageDown", "End", " ", "j"]);

/**
 * Calls `onEnd` when the person scrolls (wheel, touch, keys, scrollbar) to within AHEAD of `sentinel`.
 * Scrolling nobody asked for never loads: focus moving onto "Load more", a click bringing it into view,
 * rows arriving, the observer starting over.
 */
export function useLoadOnScroll(sentinel: HTMLElement | null, enabled: boolean, onEnd: () => void) {
  const reachEnd = useEffectEvent(onEnd);
  useEffect(() => {
    if (!sentinel || !enabled) return;
    let near = false;
    // Set by an input that scrolls down, spent by one page, cleared by any other input (a click, Tab).
    let scrolling = false;
    const check = () => {
      if (!near || !scrolling) return;
      scrolling = false;
      reachEnd();
    };
    const observer = new IntersectionObserver(
      (entries) => {
        near = entries.at(-1)?.isIntersecting ?? false;
        check();
      },
      // rootMargin only widens the window; scrollMargin (not yet in TypeScript's DOM types) widens the
      // list's own scroll box too, where the list scrolls on a wide screen.
      { rootMargin: AHEAD, scrollMargin: AHEAD } as IntersectionObserverInit,
    );
    observer.observe(sentinel);

    const input = (scrolls: boolean) => {
      scrolling = scrolls;
      check();
    };
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY > 0) input(true);
    };
    const onTouchMove = () => input(true);
    const onKey = (event: KeyboardEvent) => input(scrollsDown(event));
    const onPointer = (event: PointerEvent) => input(onScrollbar(event));
    const options = { capture: true, passive: true };
    window.addEventListener("wheel", onWheel, options);
    window.addEventListener("touchmove", onTouchMove, options);
    window.addEventListener("keydown", onKey, options);
    window.addEventListener("pointerdown", onPointer, options);
    return () => {
      observer.disconnect();
      window.removeEventListener("wheel", onWheel, options);
      window.removeEventListener("touchmove", onTouchMove, options);
      window.removeEventListener("keydown", onKey, options);
      window.removeEventListener("pointerdown", onPointer, options);
    };
  }, [sentinel, enabled]);
}

function scrollsDown(event: KeyboardEvent): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey || !DOWN_KEYS.has(event.key)) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest("input, textarea, select, [contenteditable]")) return false;
  // Space on a button presses it; Shift+Space scrolls up.
  return !(event.key === " " && (event.shiftKey || target?.closest("button, summary, [role=button]")));
}

/** A press in an element's vertical scrollbar, past its content: the start of dragging it. */
function onScrollbar(event: PointerEvent): boolean {
  const target = event.target;
  return (
    target instanceof Element &&
    target.scrollHeight > target.clientHeight &&
    event.offsetX >= target.clientWidth
  );
}
