import type postgres from "postgres";
import { sleep } from "./rate-budget";

/**
 * One writer at a time: a session-level PostgreSQL advisory lock held on a
 * connection of its own. `acquire` waits (a hot standby) until the lock is
 * free; `lost` aborts when that connection stops answering, so the writer
 * stops before another can take over.
 */
export async function acquireLeadership(
  sql: postgres.Sql,
  name: string,
  signal: AbortSignal,
  onWaiting: () => void,
): Promise<{ lost: AbortSignal; release(): Promise<void> } | null> {
  const connection = await sql.reserve();
  let announced = false;
  for (;;) {
    if (signal.aborted) {
      connection.release();
      return null;
    }
    const [row] = await connection<{ locked: boolean }[]>`select pg_try_advisory_lock(hashtext(${name})) as locked`;
    if (row?.locked) break;
    if (!announced) onWaiting();
    announced = true;
    await sleep(2000, signal);
  }
  const lost = new AbortController();
  const watchdog = setInterval(() => {
    connection`select 1`.catch(() => lost.abort(new Error("the advisory lock's connection was lost")));
  }, 5000);
  return {
    lost: lost.signal,
    async release() {
      clearInterval(watchdog);
      await connection`select pg_advisory_unlock(hashtext(${name}))`.catch(() => {});
      connection.release();
    },
  };
}
