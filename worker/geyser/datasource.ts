import { appliedSignatures } from "../../lib/db/writes";
import { rawFromGeyser } from "../../lib/geyser/raw-transaction";
import { SlotStatus } from "../../lib/geyser/service";
import { decodeTransaction } from "../../lib/program/transaction-decoder";
import { exponentialBackoff, HALF_JITTER, isDatabaseUnreachable, sleep } from "../../lib/resilience";
import { commitBatch, NotYetAvailableError } from "../batch";
import { undoDropped } from "../finality";
import { syncOnce, upkeep, type ScannerConfig, type ScannerContext, type ScannerState, type UpkeepTimers } from "../scan-loop";
import { SlotAssembler, type CompleteSlot } from "./slots";
import { openGeyserStream, type GeyserStream, type StreamEvent } from "./stream";

export interface GeyserConfig {
  url: string;
  token?: string;
  stallMs: number;
}

/** Reconnects back off from 0.5 s to 30 s, with jitter: a fleet of workers does not storm the server. */
const reconnectDelay = exponentialBackoff({ baseMs: 500, maxMs: 30_000, jitter: HALF_JITTER });
/** How long a read waits before the upkeep (finality, lapsed offers, reconcile) gets its turn. */
const UPKEEP_TICK_MS = 1_000;
/** Slots whose applied signatures are kept in memory for a dead slot's undo; older ones the finality check settles. */
const DEAD_SLOT_MEMORY = 256;

/**
 * The Yellowstone datasource: live transactions from a Geyser stream, with
 * JSON-RPC for the backfill and for the gaps the stream cannot replay.
 *
 * The gate fails closed. A stream is subscribed first; the first slot it
 * tells of is noted; the RPC scan then applies everything from the checkpoint
 * up to a tip at or past that slot; only then are the stream's buffered slots
 * applied, in (slot, index) order, each skipping signatures already applied.
 * Each complete slot is one batch through the RPC path's commitBatch, which
 * writes the checkpoint with it: the checkpoint only moves over slots read in
 * full. After a drop, the new stream asks for a replay from the slot after the
 * last complete one, once; refused or failed, the next stream starts fresh
 * and the RPC fills the gap. A dead slot undoes what was applied from it.
 */
export async function runGeyser(context: ScannerContext, config: ScannerConfig, geyser: GeyserConfig, signal: AbortSignal, state: ScannerState): Promise<void> {
  const { log, metrics } = context;
  const timers: UpkeepTimers = { lastFinality: 0, lastReconcile: 0 };
  /** Applied signatures of recent slots, for a dead slot's undo. */
  const recent = new Map<number, string[]>();
  let lastSlot: number | null = null;
  let replayNext = false;
  let failures = 0;
  let rpcCalls = 0;
  let streamed = 0;

  const rpcCallTotal = async () => (await metrics.rpcRequests.get()).values.reduce((sum, v) => sum + v.value, 0);

  const applySlot = async (complete: CompleteSlot) => {
    const before = await rpcCallTotal();
    const decoded = complete.transactions.map(({ info }) => decodeTransaction(rawFromGeyser(info, complete.slot, complete.blockTime), config.programId));
    const done = await appliedSignatures(context.sql, decoded.map((d) => d.signature));
    const fresh = decoded.filter((d) => !done.has(d.signature));
    if (fresh.length) {
      if (complete.blockTime === null) throw new NotYetAvailableError(`the stream told slot ${complete.slot} without its block time`);
      const batch = fresh.map((d) => ({ signature: d.signature, slot: complete.slot }));
      const stopTimer = metrics.batchCommit.startTimer();
      const finalizedSlot = config.commitment === "finalized" ? BigInt(complete.slot) : -1n;
      const result = await commitBatch(context.sql, context.write, context.rpc, config.programId, { batch, decoded: fresh }, log, finalizedSlot);
      stopTimer();
      state.appliedTransactions += result.transactions;
      state.appliedFills += result.fills;
      metrics.transactions.inc(result.transactions);
      metrics.fills.inc(result.fills);
      metrics.geyserStreamedTransactions.inc(result.transactions);
      metrics.checkpointSlot.set(complete.slot);
      streamed += result.transactions;
      recent.set(complete.slot, batch.map((b) => b.signature));
      for (const slot of recent.keys()) if (slot < complete.slot - DEAD_SLOT_MEMORY) recent.delete(slot);
    }
    rpcCalls += (await rpcCallTotal()) - before;
    if (streamed) metrics.geyserRpcCallsPerTransaction.set(rpcCalls / streamed);
    lastSlot = Math.max(lastSlot ?? 0, complete.slot);
  };

  const deadSlot = async (slot: number) => {
    const gone = recent.get(slot) ?? [];
    recent.delete(slot);
    if (lastSlot !== null && lastSlot >= slot) lastSlot = slot - 1;
    if (gone.length === 0) return;
    await undoDropped(context.sql, context.write, context.rpc, config.programId, gone);
    metrics.geyserDeadSlots.inc();
    metrics.rollbacks.inc();
    metrics.undoneTransactions.inc(gone.length);
    log.warn({ slot, dropped: gone }, "the stream said a slot is dead: its transactions were undone");
  };

  /** Over RPC, from the checkpoint to a tip at or past `slot`. */
  const catchUpTo = async (slot: number) => {
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) return;
      try {
        while ((await context.rpc.slot(config.commitment)) < slot && !signal.aborted) await sleep(200, signal);
        const applied = await syncOnce(context, config, signal, state);
        metrics.geyserGapFillTransactions.inc(applied);
        return applied;
      } catch (error) {
        if (!(error instanceof NotYetAvailableError)) throw error;
        await sleep(Math.min(2_000, 200 * (attempt + 1)), signal);
      }
    }
  };

  while (!signal.aborted) {
    const fromSlot: number | undefined = replayNext && lastSlot !== null ? lastSlot + 1 : undefined;
    replayNext = false;
    const stream = openGeyserStream({ url: geyser.url, token: geyser.token, programId: config.programId, commitment: config.commitment, fromSlot, stallMs: geyser.stallMs });
    const assembler = new SlotAssembler(config.commitment);
    let delivered = false;
    try {
      const ended = await session(stream, assembler, fromSlot);
      delivered = ended.delivered;
      if (signal.aborted) break;
      metrics.geyserReconnects.inc({ reason: /stalled/.test(ended.error.message) ? "stalled" : "ended" });
      if (fromSlot !== undefined && ended.beforeAnyUpdate) {
        metrics.geyserReplays.inc({ outcome: "refused" });
        log.warn({ fromSlot, err: ended.error.message }, "the Geyser server cannot replay the gap; it is filled over RPC");
      } else {
        log.warn({ err: ended.error.message }, "the Geyser stream ended; reconnecting with a replay of the slots since");
        // A stream that told something may be replayed from the last complete slot, once.
        replayNext = delivered || fromSlot === undefined;
      }
    } catch (error) {
      if (signal.aborted) break;
      metrics.retries.inc({ kind: "geyser" });
      if (isDatabaseUnreachable(error)) context.database.failed(error);
      else log.warn({ err: error }, "the Geyser datasource failed; starting again from the checkpoint");
    } finally {
      stream.close();
      metrics.geyserConnected.set(0);
    }
    failures = delivered ? 0 : failures + 1;
    await sleep(reconnectDelay(failures), signal);
  }

  /** One stream's life: the bridge (fresh streams), then slots applied as they complete. Ends when the stream does. */
  async function session(stream: GeyserStream, assembler: SlotAssembler, fromSlot: number | undefined) {
    const queued: Exclude<StreamEvent, { kind: "end" }>[] = [];
    let delivered = false;
    if (fromSlot === undefined) {
      // Fresh: the first slot told, then the RPC up to it; the stream queues meanwhile.
      for (;;) {
        const event = await stream.next(UPKEEP_TICK_MS);
        if (signal.aborted) return { error: new Error("stopping"), beforeAnyUpdate: false, delivered };
        if (!event) continue;
        if (event.kind === "end") return { ...event, delivered };
        queued.push(event);
        break;
      }
      const first = queued[0]!.slot;
      const gap = lastSlot !== null;
      const applied = await catchUpTo(first);
      if (gap) {
        metrics.geyserGapFills.inc();
        log.info({ fromCheckpointToSlot: first, transactions: applied }, "filled the stream's gap over RPC");
      }
    }
    metrics.geyserConnected.set(1);
    if (!state.caughtUp) {
      state.caughtUp = true;
      log.info({ transactions: state.appliedTransactions, fills: state.appliedFills, geyser: geyser.url }, "caught up with the chain; following the Geyser stream");
    }
    for (;;) {
      const event = queued.shift() ?? (await stream.next(UPKEEP_TICK_MS));
      if (signal.aborted) return { error: new Error("stopping"), beforeAnyUpdate: false, delivered };
      if (event?.kind === "end") return { ...event, delivered };
      if (event) {
        if (fromSlot !== undefined && !delivered) metrics.geyserReplays.inc({ outcome: "served" });
        delivered = true;
        metrics.geyserUpdates.inc({ kind: event.kind === "blockMeta" ? "block_meta" : event.kind });
        for (const outcome of assembler.push(event)) {
          if (outcome.kind === "complete") await applySlot(outcome.slot);
          else await deadSlot(outcome.slot);
        }
        if (event.kind === "slot" && event.status !== SlotStatus.SLOT_DEAD) lastSlot = Math.max(lastSlot ?? 0, event.slot);
      }
      await upkeep(context, config, timers);
      state.lastSyncAt = Date.now();
      context.database.ok();
    }
  }
}
