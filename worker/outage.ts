import type { Logger } from "pino";
import { oneLine } from "../platform/startup-error";

/**
 * Tells people about a dependency that fails (the database, the RPC) without a
 * line, let alone a stack, per retry: one warning when it starts failing, one
 * every `intervalMs` while it keeps failing (with the count), and one info
 * line when it answers again. Retries are counted all the same.
 */
export interface OutageLog {
  failed(error: unknown): void;
  ok(): void;
  /** Whether the last call was a failure. */
  readonly failing: boolean;
}

export function createOutageLog(log: Logger, what: string, intervalMs = 30_000): OutageLog {
  let failing = false;
  let since = 0;
  let failures = 0;
  let unreported = 0;
  let lastReport = -Infinity;
  let toldThisOutage = false;
  return {
    get failing() {
      return failing;
    },
    failed(error) {
      const now = Date.now();
      failures++;
      unreported++;
      if (!failing) {
        failing = true;
        since = now;
        failures = 1;
      }
      // Kept across recoveries: a dependency failing one call in five is told once per interval too.
      if (now - lastReport >= intervalMs) {
        log.warn(
          { failures: unreported, failingForSeconds: Math.round((now - since) / 1000) },
          `${what} failing: ${oneLine(error)}; retrying (${unreported} failure${unreported === 1 ? "" : "s"} since the last report)`,
        );
        lastReport = now;
        unreported = 0;
        toldThisOutage = true;
      }
    },
    ok() {
      if (!failing) return;
      failing = false;
      const seconds = (Date.now() - since) / 1000;
      // A blip retried at once is no news; an outage people were told about is.
      if (toldThisOutage && seconds >= 1) {
        log.info({ failures, afterSeconds: Math.round(seconds * 10) / 10 }, `${what} answering again`);
        lastReport = -Infinity; // the next outage is news again
      }
      toldThisOutage = false;
    },
  };
}
