import type { Logger } from "pino";
import type postgres from "postgres";
import { markLapsedOffers, readCheckpoint } from "../lib/store";
import { commitBatch, fetchBatch, NotYetAvailableError, type FetchedBatch, type SignatureRef } from "./apply";
import { settleFinality } from "./finality";
import { backoff } from "./resilient-fetch";
import { sleep } from "./rate-budget";
import { reconcileOffers } from "./reconcile";
import type { ProgramRpc } from "./rpc";
import { signaturesAfter } from "./signatures";

/** How often applied-but-unfinalized transactions are checked against the finalized chain, and lapsed offers flagged. */
const FINALITY_INTERVAL_MS = 5_000;

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

/**
 * The scanner's loop: catch up from the checkpoint (a backfill on a first
 * start), then poll for new signatures every interval. Between rounds it
 * settles finality of what it applied at `confirmed` and reconciles offers with
 * their accounts. A failed round is retried after a backoff; only shutdown ends
 * the loop, and it ends between batches, never inside one.
 */
export async function runScanner(
  sql: postgres.Sql,
  rpc: ProgramRpc,
  config: ScannerConfig,
  log: Logger,
  signal: AbortSignal,
  state: ScannerState,
): Promise<void> {
  let failures = 0;
  let lastReconcile = 0;
  let lastFinality = 0;
  while (!signal.aborted) {
    try {
      await syncOnce(sql, rpc, config, log, signal, state);
      if (signal.aborted) break;
      if (!state.caughtUp) {
        state.caughtUp = true;
        log.info({ transactions: state.appliedTransactions, fills: state.appliedFills }, "caught up with the chain");
      }
      if (Date.now() - lastFinality >= FINALITY_INTERVAL_MS) {
        if (config.commitment === "confirmed") await settleFinality(sql, rpc, config.programId, log);
        await flagLapsedOffers(sql, log);
        lastFinality = Date.now();
      }
      if (Date.now() - lastReconcile >= config.reconcileIntervalMs) {
        await reconcileOffers(sql, rpc, log);
        lastReconcile = Date.now();
      }
      failures = 0;
      state.lastSyncAt = Date.now();
      await sleep(config.intervalMs, signal);
    } catch (error) {
      if (signal.aborted) break;
      failures++;
      const wait = error instanceof NotYetAvailableError ? 500 : backoff(Math.min(failures, 7));
      log.warn({ err: error, failures, waitMs: Math.round(wait) }, "scan round failed; retrying");
      await sleep(wait, signal);
    }
  }
}

/**
 * Flags active offers whose expiry has passed, a small batch at a time (each
 * flag moves a counter on the one protocol_stats row). Results never depend on
 * it; it keeps the lapsed ones out of the open offers' indexes.
 */
async function flagLapsedOffers(sql: postgres.Sql, log: Logger): Promise<void> {
  let flagged = 0;
  for (let round = 0; round < 10; round++) {
    const n = await markLapsedOffers(sql, 1000);
    flagged += n;
    if (n < 1000) break;
  }
  if (flagged) log.debug({ flagged }, "flagged lapsed offers");
}

async function syncOnce(
  sql: postgres.Sql,
  rpc: ProgramRpc,
  config: ScannerConfig,
  log: Logger,
  signal: AbortSignal,
  state: ScannerState,
): Promise<void> {
  const checkpoint = await readCheckpoint(sql, config.programId);
  // Read before the signatures: anything listed at or below it is final.
  const finalizedSlot = config.commitment === "finalized" ? BigInt(Number.MAX_SAFE_INTEGER) : BigInt(await rpc.slot("finalized"));
  const pending = await signaturesAfter(rpc, checkpoint, log, signal);
  if (pending.length === 0) return;
  const backfill = pending.length > config.batchSize;
  const started = Date.now();
  let done = 0;
  const batches: SignatureRef[][] = [];
  for (let start = 0; start < pending.length; start += config.batchSize) batches.push(pending.slice(start, start + config.batchSize));
  // While one batch is written to the database, the next is fetched from the RPC.
  let ahead: Promise<FetchedBatch> = fetchBatch(sql, rpc, config.programId, batches[0]!);
  for (let i = 0; i < batches.length; i++) {
    const fetched = await ahead;
    if (signal.aborted) return; // the batch in hand is finished; the rest waits for the next start
    if (i + 1 < batches.length) {
      ahead = fetchBatch(sql, rpc, config.programId, batches[i + 1]!);
      ahead.catch(() => {}); // awaited next round; a failure then is handled there
    }
    const result = await commitBatch(sql, rpc, config.programId, fetched, log, finalizedSlot);
    const batch = fetched.batch;
    done += batch.length;
    state.appliedTransactions += result.transactions;
    state.appliedFills += result.fills;
    if (result.undecodable) log.warn({ undecodable: result.undecodable }, "program instructions that did not decode were skipped");
    if (backfill) {
      const rate = done / ((Date.now() - started) / 1000);
      log.info(
        {
          done,
          total: pending.length,
          txPerSecond: Math.round(rate),
          etaSeconds: Math.round((pending.length - done) / rate),
          rssMb: Math.round(process.memoryUsage.rss() / 1e6),
        },
        "backfill progress",
      );
    }
  }
  await logLag(rpc, pending.at(-1)!, log);
}

async function logLag(rpc: ProgramRpc, last: SignatureRef, log: Logger): Promise<void> {
  const tip = await rpc.slot();
  const blockTime = await rpc.connection.getBlockTime(last.slot).catch(() => null);
  log.info(
    { slotsBehind: Math.max(0, tip - last.slot), secondsBehind: blockTime ? Math.max(0, Math.round(Date.now() / 1000 - blockTime)) : null },
    "lag",
  );
}
