/**
 * At most one report per interval: a dependency that is down fails on every
 * request or retry, and a log line for each says nothing more than the first.
 * The first occurrence is reported at once; the next report, an interval
 * later at the earliest, can say how many were held back meanwhile.
 */
export interface ReportGate {
  /**
   * Counts one occurrence. When it is to be reported: how many occurrences
   * were held back since the last report (this one not included); otherwise null.
   */
  due(): number | null;
  /** Makes the next occurrence news again (reported at once), e.g. after a recovery. */
  reopen(): void;
}

export function createReportGate(intervalMs: number, now: () => number = Date.now): ReportGate {
  let lastReport = -Infinity;
  let heldBack = 0;
  return {
    due() {
      const t = now();
      if (t - lastReport < intervalMs) {
        heldBack++;
        return null;
      }
      const held = heldBack;
      lastReport = t;
      heldBack = 0;
      return held;
    },
    reopen() {
      lastReport = -Infinity;
    },
  };
}

/** `report`, called at most once per context per interval, with the count held back since its last call. */
export function throttledReport<C extends string>(
  intervalMs: number,
  report: (error: unknown, context: C, suppressed: number) => void,
  now: () => number = Date.now,
): (error: unknown, context: C) => void {
  const gates = new Map<C, ReportGate>();
  return (error, context) => {
    let gate = gates.get(context);
    if (!gate) gates.set(context, (gate = createReportGate(intervalMs, now)));
    const suppressed = gate.due();
    if (suppressed !== null) report(error, context, suppressed);
  };
}
