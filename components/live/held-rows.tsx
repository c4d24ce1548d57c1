"use client";

import { useEffect, useRef, useState, type RefObject } from "react";
import { holdRows, sameRows } from "@/client/held-rows";

/**
 * Live rows arrive at the top of a newest-first list. While any of the list
 * can be on screen (its top above the bottom of the window), they wait behind
 * the "N new" pill and nothing moves under the reader; the reader's click
 * shows them. Taken at once: the first rows of a list showing none (an empty
 * list growing moves nothing the reader reads) and rows arriving while the
 * whole list is still below the fold.
 */
export interface HeldRows<T> {
  /** The rows the reader has: the same array until they change. */
  shown: readonly T[];
  /** How many wait behind the pill. */
  held: number;
  release: () => void;
  /** The list's top, where the pill sits. */
  anchor: RefObject<HTMLDivElement | null>;
  /** Where the pill sticks once the list scrolls under it: below the site's sticky header, in px from the top. */
  stickAt: number;
}

export function useHeldRows<T>(rows: readonly T[], keyOf: (row: T) => string, listKey: string): HeldRows<T> {
  const [seen, setSeen] = useState<ReadonlySet<string>>(() => new Set(rows.map(keyOf)));
  const [shownList, setShownList] = useState(listKey);
  const [belowFold, setBelowFold] = useState(false);
  const [stickAt, setStickAt] = useState(96);
  const anchor = useRef<HTMLDivElement>(null);
  // Another list (other filters, another page) is shown whole: only rows arriving into the same list wait.
  if (shownList !== listKey) {
    setShownList(listKey);
    setSeen(new Set(rows.map(keyOf)));
  }

  useEffect(() => {
    const element = anchor.current;
    if (!element) return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry) setBelowFold(!entry.isIntersecting && entry.boundingClientRect.top >= (entry.rootBounds?.bottom ?? window.innerHeight));
    });
    observer.observe(element);
    // The site header (the page's first header) is sticky and taller on a phone, where it wraps.
    const header = document.querySelector("header");
    const sized = new ResizeObserver(() => setStickAt(Math.ceil((header?.getBoundingClientRect().height ?? 88) + 8)));
    if (header) sized.observe(header);
    return () => {
      observer.disconnect();
      sized.disconnect();
    };
  }, []);

  const { shown, waiting } = holdRows(rows, keyOf, seen);
  const direct = belowFold || shown.length === 0;
  if (direct && waiting > 0) {
    // Adjusting state while rendering (React's pattern for state derived from props): no extra commit.
    setSeen(new Set(rows.map(keyOf)));
  }
  // The same array while the reader's rows are the same rows: a held event re-renders the pill, not the table.
  const next = direct ? rows : shown;
  const [kept, setKept] = useState<readonly T[]>(next);
  const same = sameRows(kept, next);
  if (!same) setKept(next);
  return {
    shown: same ? kept : next,
    held: direct ? 0 : waiting,
    anchor,
    stickAt,
    release: () => {
      setSeen(new Set(rows.map(keyOf)));
      const top = anchor.current;
      if (!top) return;
      // The pill goes with the click: the reader continues at the list's top, its newest row next.
      if (top.getBoundingClientRect().top < stickAt) top.scrollIntoView({ block: "start", behavior: "smooth" });
      top.focus({ preventScroll: true });
    },
  };
}

/**
 * The "N new" pill, at the list's top: a zero-height sticky layer over the
 * table's header (over the top of the screen once the list scrolls under it),
 * so showing it moves nothing; a polite live region announces the count.
 */
export function NewRowsPill({ rows: { held: count, release, anchor, stickAt }, noun }: { rows: HeldRows<unknown>; noun: [one: string, many: string] }) {
  return (
    <>
      <div ref={anchor} tabIndex={-1} className="outline-none" style={{ scrollMarginTop: stickAt }} data-testid="new-rows-anchor" />
      <div className="sticky z-30 h-0" style={{ top: stickAt }} aria-live="polite" aria-atomic="true">
        {count > 0 && (
          <button
            type="button"
            onClick={release}
            className="absolute left-1/2 top-0.5 -translate-x-1/2 whitespace-nowrap rounded-full bg-accent px-4 py-1 text-sm font-medium text-on-accent shadow-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
            data-testid="new-rows-pill"
            data-count={count}
          >
            <span className="sr-only">Show </span>
            {count} new {count === 1 ? noun[0] : noun[1]} <span aria-hidden="true">↑</span>
          </button>
        )}
      </div>
    </>
  );
}
