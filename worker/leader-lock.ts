import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { exponentialBackoff, FULL_JITTER, sleep } from "../lib/resilience";
import type { OutageLog } from "./outage";

/**
 * One writer at a time: a session-level PostgreSQL advisory lock, held by a
 * client of its own (one connection), and every write of the scanner runs in
 * a transaction on that same session, which first proves the session still
 * holds the lock (the fence). A session that died (PostgreSQL restarted, the
 * backend was terminated) takes its lock and its open transaction with it, so
 * a write can only commit while its writer holds the lock: there are never
 * two writers, even for the seconds before the watchdog notices the loss.
 *
 * After any failure the client is ended, never reused: postgres.js crashes the
 * process when a pinned connection whose backend died is written to again
 * (porsager/postgres#1208), and a silently reconnected session would not hold
 * the lock anyway.
 */
export interface Lease {
  /** Aborts once the lock's session may be gone: stop, then acquire again. */
  lost: AbortSignal;
  /** Runs `fn` in one transaction on the lock's session, fenced by the lock. */
  write<T>(fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T>;
  release(): Promise<void>;
}

export interface LeadershipOptions {
  url: string;
  /** The lock's name; hashed by PostgreSQL to the advisory key. */
  name: string;
  applicationName: string;
  /** Ends the wait (shutdown). */
  signal: AbortSignal;
  /** Called once when another worker holds the lock. */
  onWaiting(): void;
  /** Told of connection failures, once per interval. */
  database: OutageLog;
}

const STANDBY_POLL_MS = 2000;
/** Between attempts to reach the database for the lock: half a second to 8 s, jittered. */
const reconnectDelay = exponentialBackoff({ baseMs: 250, maxMs: 8_000, minMs: 500, jitter: FULL_JITTER });
const WATCHDOG_MS = 2000;

export class LockLostError extends Error {
  override name = "LockLostError";
}

function lockClient(options: LeadershipOptions): postgres.Sql {
  const client = postgres(options.url, {
    max: 1,
    // The session is the lock: never recycled by age or idleness.
    max_lifetime: 0,
    idle_timeout: 0,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: options.applicationName },
  });
  // The store's writes expect the pool's value handling, which drizzle sets on
  // its client (JSON and timestamp parameters pass as the text the store made).
  drizzle(client);
  return client;
}

/** Waits (a hot standby) until the lock is free and takes it; null when `signal` ends the wait. */
export async function acquireLeadership(options: LeadershipOptions): Promise<Lease | null> {
  const { signal, database } = options;
  let announced = false;
  let failures = 0;
  while (!signal.aborted) {
    const client = lockClient(options);
    try {
      for (;;) {
        const [row] = await client<{ locked: boolean; key: string }[]>`
          select pg_try_advisory_lock(hashtext(${options.name})) as locked, hashtext(${options.name})::text as key`;
        database.ok();
        failures = 0;
        if (row!.locked) return lease(client, row!.key);
        if (!announced) options.onWaiting();
        announced = true;
        await sleep(STANDBY_POLL_MS, signal);
        if (signal.aborted) break;
      }
    } catch (error) {
      if (signal.aborted) break;
      database.failed(error);
      failures++;
    }
    await client.end({ timeout: 0 }).catch(() => {});
    if (failures) await sleep(reconnectDelay(failures), signal);
  }
  return null;
}

function lease(client: postgres.Sql, key: string): Lease {
  if (!/^-?\d+$/.test(key)) throw new Error(`unexpected advisory key ${key}`);
  // pg_advisory_lock(bigint) files the key as classid (high 32 bits) and objid (low 32 bits), objsubid 1.
  const fence = `do $$ begin
    if not exists (select 1 from pg_locks where locktype = 'advisory' and granted and pid = pg_backend_pid()
                   and objsubid = 1 and ((classid::bigint << 32) | objid::bigint) = ${key}::bigint) then
      raise exception 'this session no longer holds the scanner lock';
    end if;
  end $$`;
  const lost = new AbortController();
  const lose = (why: unknown) => {
    if (!lost.signal.aborted) lost.abort(new LockLostError(`the scanner lock's session was lost: ${(why as Error)?.message ?? why}`));
  };
  const watchdog = setInterval(() => {
    client.unsafe(fence).catch(lose);
  }, WATCHDOG_MS);
  watchdog.unref();
  return {
    lost: lost.signal,
    async write(fn) {
      if (lost.signal.aborted) throw lost.signal.reason;
      try {
        return await client.begin(async (tx) => {
          // Sent first (postgres.js sends a query when it is awaited, hence
          // execute()), pipelined with the writes: they commit only if it passes.
          const fenced = tx.unsafe(fence).execute();
          const [, result] = await Promise.all([fenced, fn(tx)]);
          return result;
        }) as Awaited<ReturnType<typeof fn>>;
      } catch (error) {
        // A statement that failed on its own merits leaves the session and its lock; anything else ends the lease.
        await client.unsafe(fence).catch(lose);
        throw lost.signal.aborted ? lost.signal.reason : error;
      }
    },
    async release() {
      clearInterval(watchdog);
      if (!lost.signal.aborted) await client`select pg_advisory_unlock(${key}::bigint)`.catch(() => {});
      lost.abort(new LockLostError("released"));
      await client.end({ timeout: 1 }).catch(() => {});
    },
  };
}
