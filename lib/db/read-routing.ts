import type postgres from "postgres";
import { codedError, isDatabaseUnreachable } from "../resilience";

/**
 * Reads spread over streaming replicas without ever answering older than
 * what this process has already said. The feed id is the watermark: a
 * replica serves a read only while the newest feed id it has applied is at
 * or past the newest id this process has streamed or vouched for (the
 * hub's last read, which a 304 also stands on). Its position is polled, and
 * a polled position is a lower bound (a replica only moves forward), so a
 * read's snapshot, taken after the check, is never below the watermark.
 *
 * The lag guard sends every read to the primary while a replica's replay
 * lag exceeds `maxLagMs`, and back once it is under it again. A replica that
 * fails (its poll or a read cannot reach it) is out until a poll succeeds;
 * the read that met the failure, or a read a standby cancelled for a
 * recovery conflict (SQLSTATE 40001), is run again once on the primary.
 */

export interface ReplicaPosition {
  name: string;
  /** Polled and answering. */
  up: boolean;
  /** Replay lag past the bound (the guard holds reads on the primary). */
  lagging: boolean;
  /** The newest feed id applied, as of the last poll. */
  newest: bigint;
  lagMs: number;
}

export type ReadTarget = "replica" | "primary";
export type ReplicaEvent = "down" | "up" | "lagging" | "caught_up";

export interface ReadRouterOptions {
  primary: postgres.Sql;
  replicas: { name: string; sql: postgres.Sql }[];
  maxLagMs: number;
  /** How often each replica's position and lag are read. */
  pollMs?: number;
  /** A poll not answered in this time counts as a failure. */
  pollTimeoutMs?: number;
  /** The newest feed id this process has streamed or vouched for; null before it knows one. */
  watermark(): bigint | null;
  onRead?(target: ReadTarget, outcome: "ok" | "retried_on_primary"): void;
  onReplica?(name: string, event: ReplicaEvent, detail: { lagMs: number; error?: string }): void;
}

interface Replica extends ReplicaPosition {
  sql: postgres.Sql;
  /** Resolves when the replica is marked down: its reads in flight (queued in a pooler) go to the primary. */
  lost: Promise<typeof LOST>;
  markLost(): void;
}

const LOST = Symbol("replica lost");

function lostSignal(): Pick<Replica, "lost" | "markLost"> {
  let markLost!: () => void;
  const lost = new Promise<typeof LOST>((resolve) => (markLost = () => resolve(LOST)));
  return { lost, markLost };
}

// Lag is 0 when everything received is applied (an idle primary is no lag),
// else the age of the last transaction replayed.
const POSITION_SQL = `select coalesce((select max(id) from feed_events), 0)::text as newest,
  (case when not pg_is_in_recovery() or pg_last_wal_receive_lsn() is not distinct from pg_last_wal_replay_lsn() then 0
    else coalesce(extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 0) end)::float8 as lag_ms`;

/** A standby cancelled the statement because replay needed what it read; the primary has no such conflict. */
export function isRecoveryConflict(error: unknown): boolean {
  const code = codedError(error)?.code;
  return code === "40001" || code === "40P01";
}

export class ReadRouter {
  private readonly replicas: Replica[];
  private timer: NodeJS.Timeout | null = null;
  private turn = 0;
  private waiters: (() => void)[] = [];
  private polling = false;

  constructor(private readonly options: ReadRouterOptions) {
    this.replicas = options.replicas.map((r) => ({ ...r, up: false, lagging: false, newest: 0n, lagMs: 0, ...lostSignal() }));
  }

  /** Starts polling (the first poll at once); replicas serve once a poll has answered. */
  start(): void {
    if (this.timer || this.replicas.length === 0) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs ?? 200);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.wake();
  }

  positions(): ReplicaPosition[] {
    return this.replicas.map(({ name, up, lagging, newest, lagMs }) => ({ name, up, lagging, newest, lagMs }));
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      await Promise.all(this.replicas.map((r) => this.pollOne(r)));
    } finally {
      this.polling = false;
      this.wake();
    }
  }

  private async pollOne(replica: Replica): Promise<void> {
    const timeoutMs = this.options.pollTimeoutMs ?? 1000;
    let timeout: NodeJS.Timeout | undefined;
    try {
      const query = replica.sql.unsafe<{ newest: string; lag_ms: number }[]>(POSITION_SQL);
      const expired = new Promise<never>((_, reject) => {
        timeout = setTimeout(() => {
          query.cancel();
          reject(new Error(`no answer in ${timeoutMs} ms`));
        }, timeoutMs);
      });
      const [row] = await Promise.race([query, expired]);
      const newest = BigInt(row!.newest);
      if (newest > replica.newest) replica.newest = newest;
      replica.lagMs = Number(row!.lag_ms);
      if (!replica.up) {
        replica.up = true;
        Object.assign(replica, lostSignal());
        this.options.onReplica?.(replica.name, "up", { lagMs: replica.lagMs });
      }
      const lagging = replica.lagMs > this.options.maxLagMs;
      if (lagging !== replica.lagging) {
        replica.lagging = lagging;
        this.options.onReplica?.(replica.name, lagging ? "lagging" : "caught_up", { lagMs: replica.lagMs });
      }
    } catch (error) {
      this.markDown(replica, error);
    } finally {
      clearTimeout(timeout);
    }
  }

  private markDown(replica: Replica, error: unknown): void {
    if (!replica.up) return;
    replica.up = false;
    // A restarted replica may come back behind what it had applied (it replays again): learn its position afresh.
    replica.newest = 0n;
    replica.markLost();
    this.options.onReplica?.(replica.name, "down", { lagMs: replica.lagMs, error: (error as Error)?.message ?? String(error) });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private nextPoll(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * The replica to read from now, or null for the primary. With `waitMs`, a
   * replica that is up and not lagging but behind the watermark is waited
   * for, poll by poll, that long at most (a stream's backlog).
   */
  async choose(waitMs = 0): Promise<Replica | null> {
    const mark = this.options.watermark() ?? 0n;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const serving = this.replicas.filter((r) => r.up && !r.lagging);
      const ready = serving.filter((r) => r.newest >= mark);
      if (ready.length > 0) return ready[this.turn++ % ready.length]!;
      if (serving.length === 0 || Date.now() >= deadline || !this.timer) return null;
      await this.nextPoll();
    }
  }

  /** Runs one statement where `choose` says, again on the primary once when the replica failed it. */
  private async run(strings: TemplateStringsArray, args: unknown[], waitMs: number): Promise<unknown> {
    const primary = this.options.primary;
    const replica = await this.choose(waitMs);
    if (!replica) {
      const rows = await primary(strings, ...(args as postgres.ParameterOrFragment<never>[]));
      this.options.onRead?.("primary", "ok");
      return rows;
    }
    try {
      const query = replica.sql(strings, ...(args as postgres.ParameterOrFragment<never>[]));
      // A pooler holds a read for a server that died until its own timeout: once a poll says the replica is lost, the read leaves.
      const rows = await Promise.race([query, replica.lost]);
      if (rows === LOST) {
        query.cancel();
        throw Object.assign(new Error("the replica was lost during the read"), { code: "ECONNRESET" });
      }
      this.options.onRead?.("replica", "ok");
      return rows;
    } catch (error) {
      const unreachable = isDatabaseUnreachable(error);
      if (!unreachable && !isRecoveryConflict(error)) throw error;
      if (unreachable) this.markDown(replica, error);
      const rows = await primary(strings, ...(args as postgres.ParameterOrFragment<never>[]));
      this.options.onRead?.("replica", "retried_on_primary");
      return rows;
    }
  }

  /**
   * A postgres.js client whose tagged statements run where `choose` says,
   * each chosen when it is awaited. Fragments and helpers (`sql.unsafe`,
   * `sql(name)`) are made by the primary's client: postgres.js inlines a
   * fragment's text and parameters into whichever client runs the statement.
   * Everything else (listen, begin, end) is the primary's.
   */
  client(options: { waitMs?: number } = {}): postgres.Sql {
    const waitMs = options.waitMs ?? 0;
    const run = (strings: TemplateStringsArray, args: unknown[]) => this.run(strings, args, waitMs);
    return new Proxy(this.options.primary, {
      apply(target, thisArg, argList: unknown[]) {
        const query = Reflect.apply(target, thisArg, argList) as object;
        const strings = argList[0] as TemplateStringsArray | undefined;
        if (!Array.isArray(strings?.raw)) return query;
        let result: Promise<unknown> | undefined;
        const start = () => (result ??= run(strings, argList.slice(1)));
        // Awaited: run where chosen. Nested in another statement: a fragment, never run itself.
        Object.defineProperties(query, {
          then: { value: (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => start().then(ok, fail) },
          catch: { value: (fail?: (e: unknown) => unknown) => start().catch(fail) },
          finally: { value: (done?: () => void) => start().finally(done) },
        });
        return query;
      },
    });
  }
}
