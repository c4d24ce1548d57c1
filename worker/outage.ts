import type { Logger } from "pino";
import { createReportGate } from "../lib/resilience";
import { oneLine } from "../platform/startup-error";

/**
 * Tells people about a dependency that fails (the database, the RPC) without a
 * line, let alone a stack, per retry: one warning when it starts failing, one
 * every `intervalMs` while it keeps failing (with the count), and one info
 * line when it answers again after a warning. Retries are counted all the same.
 */
export interface OutageLog {
  failed(error: unknown): void;
  ok(): void;
  /** Whether the last call was a failure. */
  readonly failing: boolean;
}

export function createOutageLog(log: Logger, what: string, intervalMs = 30_000, now: () => number = Date.now): OutageLog {
  // Kept across recoveries: a dependency failing one call in five is told once per interval too.
  const gate = createReportGate(intervalMs, now);
  let failing = false;
  let since = 0;
  let failures = 0;
  let toldThisOutage = false;
  return {
    get failing() {
      return failing;
    },
    failed(error) {
      const t = now();
      failures++;
      if (!failing) {
        failing = true;
        since = t;
        failures = 1;
      }
      const heldBack = gate.due();
      if (heldBack === null) return;
      const unreported = heldBack + 1;
      log.warn(
        { failures: unreported, failingForSeconds: Math.round((t - since) / 1000) },
        `${what} failing: ${oneLine(error)}; retrying (${unreported} failure${unreported === 1 ? "" : "s"} since the last report)`,
      );
      toldThisOutage = true;
    },
    ok() {
      if (!failing) return;
      failing = false;
      const seconds = (now() - since) / 1000;
      // A warning people read gets its ending, however short the outage was.
      if (toldThisOutage) log.info({ failures, afterSeconds: Math.round(seconds * 10) / 10 }, `${what} answering again`);
      // After an outage that lasted, the next one is news at once; a dependency
      // that fails a call now and then stays at one warning per interval.
      if (toldThisOutage && seconds >= 1) gate.reopen();
      toldThisOutage = false;
    },
  };
}
