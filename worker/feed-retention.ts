import type { Logger } from "pino";
import type postgres from "postgres";
import { pruneFeed } from "../lib/db/writes";

const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 1000;

/**
 * Keeps the live feed's log to its retention: once a minute, deletes the
 * events older than `hours`, a thousand per transaction on the pool (not the
 * writer's session: appends add rows at the other end and never wait for it).
 * Every worker may run it, leader or standby: a delete twice is a no-op.
 * Returns the stop function.
 */
export function pruneFeedEvery(sql: postgres.Sql, hours: number, log: Logger): () => void {
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      let pruned = 0;
      for (;;) {
        const n = await pruneFeed(sql, new Date(Date.now() - hours * 3_600_000), PRUNE_BATCH);
        pruned += n;
        if (n < PRUNE_BATCH) break;
      }
      if (pruned) log.debug({ pruned }, "pruned the live feed's old events");
    } catch (error) {
      log.debug({ err: (error as Error)?.message }, "pruning the live feed failed; tried again next round");
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), PRUNE_EVERY_MS);
  timer.unref();
  void round();
  return () => clearInterval(timer);
}
