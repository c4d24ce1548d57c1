// A newest-first live list the reader is looking at keeps its rows still:
// rows that arrive wait, counted, until the reader asks for them
// (components/live/held-rows.tsx draws the pill and decides when to hold).

/**
 * The rows the reader has (their keys in `seen`, in the list's order) and how
 * many others wait. A key counts once, so a row delivered twice is one row.
 */
export function holdRows<T>(rows: readonly T[], keyOf: (row: T) => string, seen: ReadonlySet<string>): { shown: T[]; waiting: number } {
  const shown: T[] = [];
  const waiting = new Set<string>();
  for (const row of rows) {
    const key = keyOf(row);
    if (seen.has(key)) shown.push(row);
    else waiting.add(key);
  }
  return { shown, waiting: waiting.size };
}

/** Whether two lists hold the same row objects in the same order. */
export function sameRows<T>(a: readonly T[], b: readonly T[]): boolean {
  return a === b || (a.length === b.length && a.every((row, i) => row === b[i]));
}
