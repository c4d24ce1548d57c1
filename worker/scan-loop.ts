import type { Logger } from "pino";
import type postgres from "postgres";
import { markLapsedOffers, readCheckpoint } from "../lib/db/writes";
import { createReportGate, isDatabaseUnreachable, sleep } from "../lib/resilience";
import { commitBatch, fetchBatch, NotYetAvailableError, type FetchedBatch, type SignatureRef } from "./batch";
import { settleFinality } from "./finality";
import type { Lease } from "./leader-lock";
import type { WorkerMetrics } from "./metrics";
import type { OutageLog } from "./outage";
import { reconcileOffers } from "./reconcile";
import { retryDelay } from "./retry-delay";
import type { ProgramRpc } from "./rpc";
import { planSignatures } from "./signatures";
import type { Wakeup } from "./wakeup";

/** How often applied-but-unfinalized transactions are checked against the finalized chain, and lapsed offers flagged. */
const FINALITY_INTERVAL_MS = 5_000;
/** A backfill's progress line, by the clock rather than per batch. */
const PROGRESS_EVERY_MS = 5_000;
/** Lag worth an info line (else it is debug): the chain is this far ahead of the index. */
const NOTABLE_LAG_SECONDS = 30;

export interface ScannerConfig {
  programId: string;
  commitment: "confirmed" | "finalized";
  intervalMs: number;
  batchSize: number;
  reconcileIntervalMs: number;
}

export interface ScannerState {
  /** Set once the first catch-up after start has finished. */
  caughtUp: boolean;
  lastSyncAt: number;
  appliedTransactions: number;
  appliedFills: number;
}

/** What a scan writes through and reports to. */
export interface ScannerContext {
  /** Reads (and the fetch-ahead's look-ups). */
  sql: postgres.Sql;
  /** Writes: one transaction on the leader lock's session, fenced by the lock. */
  write: Lease["write"];
  rpc: ProgramRpc;
  log: Logger;
  metrics: WorkerMetrics;
  /** The database's outage log, shared with the lock's. */
  database: OutageLog;
  /** Ends the wait between rounds early when the RPC's WebSocket tells of new program transactions; unset: the poll alone. */
  wakeup?: Pick<Wakeup, "wait">;
}

/**
 * The scanner's loop: catch up from the checkpoint (a backfill on a first
 * start), then poll for new signatures every interval. Between rounds it
 * settles finality of what it applied at `confirmed` and reconciles offers with
 * their accounts. A failed round (the database restarting, say) is retried
 * after a backoff from the checkpoint; only `signal` ends the loop (shutdown,
 * or the lock lost), and it ends between batches, never inside one.
 */
export async function runScanner(context: ScannerContext, config: ScannerConfig, signal: AbortSignal, state: ScannerState): Promise<void> {
  const { log, metrics, database } = context;
  let failures = 0;
  const timers: UpkeepTimers = { lastFinality: 0, lastReconcile: 0 };
  while (!signal.aborted) {
    try {
      await syncOnce(context, config, signal, state);
      if (signal.aborted) break;
      if (!state.caughtUp) {
        state.caughtUp = true;
        log.info({ transactions: state.appliedTransactions, fills: state.appliedFills }, "caught up with the chain");
      }
      await upkeep(context, config, timers);
      failures = 0;
      database.ok();
      state.lastSyncAt = Date.now();
      await (context.wakeup ? context.wakeup.wait(config.intervalMs, signal) : sleep(config.intervalMs, signal));
    } catch (error) {
      if (signal.aborted) break;
      failures++;
      metrics.retries.inc({ kind: "scan_round" });
      const notYet = error instanceof NotYetAvailableError;
      if (notYet) log.debug({ err: (error as Error).message }, "the node is not there yet; retrying the round");
      else if (isDatabaseUnreachable(error)) database.failed(error);
      else log.warn({ err: error, failures }, "scan round failed; retrying from the checkpoint");
      await sleep(notYet ? 500 : retryDelay(failures), signal);
    }
  }
}

/** When the upkeep last ran its parts. */
export interface UpkeepTimers {
  lastFinality: number;
  lastReconcile: number;
}

/**
 * Between rounds, when due: settles finality of what was applied at
 * `confirmed` (undoing what the cluster dropped), flags lapsed offers, and
 * reconciles offers with their accounts. The Geyser datasource runs it too.
 */
export async function upkeep(context: ScannerContext, config: ScannerConfig, timers: UpkeepTimers): Promise<void> {
  const { sql, write, rpc, log, metrics } = context;
  if (Date.now() - timers.lastFinality >= FINALITY_INTERVAL_MS) {
    if (config.commitment === "confirmed") {
      const dropped = await settleFinality(sql, write, rpc, config.programId, log);
      if (dropped) {
        metrics.rollbacks.inc();
        metrics.undoneTransactions.inc(dropped);
      }
    }
    await flagLapsedOffers(write, log);
    timers.lastFinality = Date.now();
  }
  if (Date.now() - timers.lastReconcile >= config.reconcileIntervalMs) {
    await reconcileOffers(sql, write, rpc, log);
    timers.lastReconcile = Date.now();
  }
}

/**
 * Flags active offers whose expiry has passed, a small batch at a time (each
 * flag moves a counter on the one protocol_stats row). Results never depend on
 * it; it keeps the lapsed ones out of the open offers' indexes.
 */
async function flagLapsedOffers(write: Lease["write"], log: Logger): Promise<void> {
  let flagged = 0;
  for (let round = 0; round < 10; round++) {
    const n = await write((tx) => markLapsedOffers(tx, 1000));
    flagged += n;
    if (n < 1000) break;
  }
  if (flagged) log.debug({ flagged }, "flagged lapsed offers");
}

/** One round over RPC: every program transaction from the checkpoint to the node's tip, applied in batches. Returns how many were applied. */
export async function syncOnce(context: ScannerContext, config: ScannerConfig, signal: AbortSignal, state: ScannerState): Promise<number> {
  const { sql, write, rpc, log, metrics } = context;
  const checkpoint = await readCheckpoint(sql, config.programId);
  // Read before the signatures: anything listed at or below it is final.
  const finalizedSlot = config.commitment === "finalized" ? BigInt(Number.MAX_SAFE_INTEGER) : BigInt(await rpc.slot("finalized"));
  const plan = await planSignatures(rpc, checkpoint, log, signal);
  if (plan.total === 0 && !plan.awaitingFork) metrics.slotLag.set(0); // nothing new: the index is at the tip
  if (plan.total === 0 || signal.aborted) return 0;
  let applied = 0;
  const progress = plan.total > config.batchSize ? backfillProgress(log, plan.total) : null;
  const batches = plan.batches(config.batchSize);
  const fetchNext = async (): Promise<FetchedBatch | null> => {
    const next = await batches.next();
    return next.done ? null : fetchBatch(sql, rpc, config.programId, next.value);
  };
  // While one batch is written to the database, the next is read from the RPC.
  let ahead = fetchNext();
  let last: SignatureRef | undefined;
  for (;;) {
    const fetched = await ahead;
    if (!fetched) break;
    if (signal.aborted) return applied; // the batch in hand is finished; the rest waits for the next round
    ahead = fetchNext();
    ahead.catch(() => {}); // awaited next round; a failure then is handled there
    const stopTimer = metrics.batchCommit.startTimer();
    const result = await commitBatch(sql, write, rpc, config.programId, fetched, log, finalizedSlot);
    stopTimer();
    last = fetched.batch.at(-1);
    state.appliedTransactions += result.transactions;
    applied += result.transactions;
    state.appliedFills += result.fills;
    metrics.transactions.inc(result.transactions);
    metrics.fills.inc(result.fills);
    if (last) metrics.checkpointSlot.set(last.slot);
    if (result.undecodable) log.warn({ undecodable: result.undecodable }, "program instructions that did not decode were skipped");
    progress?.(fetched.batch.length);
  }
  if (last) await observeLag(rpc, last, log, metrics);
  return applied;
}

/** Every few seconds of a backfill: done of total, the rate and the time left. */
function backfillProgress(log: Logger, total: number): (batch: number) => void {
  const started = Date.now();
  let done = 0;
  let lastLine = started;
  log.info({ total }, "backfill started");
  return (batch) => {
    done += batch;
    const now = Date.now();
    if (now - lastLine < PROGRESS_EVERY_MS && done < total) return;
    lastLine = now;
    const rate = done / Math.max(0.001, (now - started) / 1000);
    log.info(
      {
        done,
        total,
        percent: Math.floor((done / total) * 100),
        txPerSecond: Math.round(rate),
        etaSeconds: Math.round((total - done) / rate),
        rssMb: Math.round(process.memoryUsage.rss() / 1e6),
      },
      done < total ? "backfill progress" : "backfill done",
    );
  };
}

/** A lag people should know of is told at info level once per interval; the rest at debug. */
const notableLagGate = createReportGate(30_000);

async function observeLag(rpc: ProgramRpc, last: SignatureRef, log: Logger, metrics: WorkerMetrics): Promise<void> {
  const tip = await rpc.slot();
  const slotsBehind = Math.max(0, tip - last.slot);
  metrics.slotLag.set(slotsBehind);
  const blockTime = await rpc.connection.getBlockTime(last.slot).catch(() => null);
  const secondsBehind = blockTime ? Math.max(0, Math.round(Date.now() / 1000 - blockTime)) : null;
  // Nothing at info level when all is well; a lag people should know of, once per interval.
  const notable = secondsBehind !== null && secondsBehind >= NOTABLE_LAG_SECONDS && notableLagGate.due() !== null;
  log[notable ? "info" : "debug"]({ slotsBehind, secondsBehind }, "lag");
}
