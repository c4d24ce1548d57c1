/**
 * At most one report per context per interval: a dependency that is down
 * fails on every request, and a log line per request says nothing more than
 * the first one. The next report says how many were left out meanwhile.
 */
export function throttledReport<C extends string>(
  intervalMs: number,
  report: (error: unknown, context: C, suppressed: number) => void,
  now: () => number = Date.now,
): (error: unknown, context: C) => void {
  const last = new Map<C, { at: number; suppressed: number }>();
  return (error, context) => {
    const t = now();
    const seen = last.get(context);
    if (seen && t - seen.at < intervalMs) {
      seen.suppressed++;
      return;
    }
    last.set(context, { at: t, suppressed: 0 });
    report(error, context, seen?.suppressed ?? 0);
  };
}
