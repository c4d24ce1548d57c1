"use client";

import { useEffect, useState } from "react";

/** Scrolled further than this, the reader is reading rows below the top: new ones wait. */
const READING_BELOW_PX = 120;

/**
 * Live rows arrive at the top of a newest-first list. While the reader is at
 * the top they show at once; scrolled down, they are held (nothing moves
 * under the reader) and counted, until the reader asks for them or scrolls
 * back to the top.
 */
export function useHeldRows<T>(rows: readonly T[], keyOf: (row: T) => string, listKey: string): { shown: T[]; held: number; release: () => void } {
  const [seen, setSeen] = useState<ReadonlySet<string>>(() => new Set(rows.map(keyOf)));
  const [shownList, setShownList] = useState(listKey);
  const [atTop, setAtTop] = useState(true);
  // Another list (other filters, another page) is shown whole: only rows arriving into the same list wait.
  if (shownList !== listKey) {
    setShownList(listKey);
    setSeen(new Set(rows.map(keyOf)));
  }

  useEffect(() => {
    const onScroll = () => setAtTop(window.scrollY < READING_BELOW_PX);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  const unseen = rows.filter((r) => !seen.has(keyOf(r)));
  if (atTop && unseen.length > 0) {
    // Adjusting state while rendering (React's pattern for state derived from props): no extra commit.
    setSeen(new Set([...seen, ...unseen.map(keyOf)]));
  }
  return {
    shown: atTop ? [...rows] : rows.filter((r) => seen.has(keyOf(r))),
    held: atTop ? 0 : unseen.length,
    release: () => {
      setSeen(new Set(rows.map(keyOf)));
      window.scrollTo({ top: 0, behavior: "smooth" });
    },
  };
}

/** The "N new" pill: fixed over the page, so showing it moves nothing. */
export function NewRowsPill({ count, noun, onShow }: { count: number; noun: string; onShow: () => void }) {
  if (count === 0) return null;
  return (
    <button
      type="button"
      onClick={onShow}
      className="fixed left-1/2 top-24 z-30 -translate-x-1/2 rounded-full bg-accent px-4 py-1.5 text-sm font-medium text-on-accent shadow-lg"
      data-testid="new-rows-pill"
    >
      {count} new {noun} ↑
    </button>
  );
}
