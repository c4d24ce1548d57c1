import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The worker's Prometheus metrics, served at /metrics on WORKER_HEALTH_PORT.
 * Names follow ponder's (`ponder_sync_block`, `..._total` counters): one
 * prefix, the unit in the name.
 */
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

const PREFIX = "offer_book_worker_";

export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const registers = [registry];
  return {
    registry,
    slotLag: new Gauge({ name: `${PREFIX}slot_lag`, help: "Slots between the RPC's tip and the newest transaction indexed", registers }),
    checkpointSlot: new Gauge({ name: `${PREFIX}checkpoint_slot`, help: "Slot of the checkpoint last committed", registers }),
    leader: new Gauge({ name: `${PREFIX}leader`, help: "1 while this worker holds the scanner lock and writes, 0 as a standby", registers }),
    transactions: new Counter({ name: `${PREFIX}transactions_indexed_total`, help: "Program transactions applied", registers }),
    fills: new Counter({ name: `${PREFIX}fills_indexed_total`, help: "Fills recorded", registers }),
    batchCommit: new Histogram({
      name: `${PREFIX}batch_commit_seconds`,
      help: "Time to write one batch and its checkpoint in one transaction",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rpcRequests: new Counter({
      name: `${PREFIX}rpc_requests_total`,
      help: "JSON-RPC calls by method and outcome (ok, error: retried or given up)",
      labelNames: ["method", "outcome"] as const,
      registers,
    }),
    retries: new Counter({
      name: `${PREFIX}retries_total`,
      help: "Retries by what failed (rpc transport reasons, rpc errors, scan rounds, the database lock)",
      labelNames: ["kind"] as const,
      registers,
    }),
    rollbacks: new Counter({ name: `${PREFIX}rollbacks_total`, help: "Finality checks that undid rolled-back transactions", registers }),
    wakeupConnected: new Gauge({
      name: `${PREFIX}wakeup_connected`,
      help: "1 while the logsSubscribe wake-up on the RPC's WebSocket is subscribed, 0 while the scanner only polls",
      registers,
    }),
    wakeups: new Counter({ name: `${PREFIX}wakeups_total`, help: "Program log notifications that woke the scanner (or queued one more round)", registers }),
    undoneTransactions: new Counter({ name: `${PREFIX}undone_transactions_total`, help: "Transactions undone because the cluster dropped them", registers }),
    geyserConnected: new Gauge({ name: `${PREFIX}geyser_connected`, help: "1 while the Yellowstone (GEYSER_URL) stream is subscribed and applying, 0 otherwise", registers }),
    geyserUpdates: new Counter({
      name: `${PREFIX}geyser_updates_total`,
      help: "Updates received from the Yellowstone stream, by kind (transaction, block_meta, slot)",
      labelNames: ["kind"] as const,
      registers,
    }),
    geyserStreamedTransactions: new Counter({ name: `${PREFIX}geyser_streamed_transactions_total`, help: "Program transactions applied from the stream (not over RPC)", registers }),
    geyserReconnects: new Counter({
      name: `${PREFIX}geyser_reconnects_total`,
      help: "Streams replaced, by why (ended, stalled)",
      labelNames: ["reason"] as const,
      registers,
    }),
    geyserReplays: new Counter({
      name: `${PREFIX}geyser_replays_total`,
      help: "Replays asked with from_slot after a reconnect, by outcome (served, refused)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    geyserGapFills: new Counter({ name: `${PREFIX}geyser_gap_fills_total`, help: "Gaps the stream could not replay, filled over RPC", registers }),
    geyserGapFillTransactions: new Counter({ name: `${PREFIX}geyser_gap_fill_transactions_total`, help: "Transactions read over RPC to fill the stream's gaps (the first backfill included)", registers }),
    geyserDeadSlots: new Counter({ name: `${PREFIX}geyser_dead_slots_total`, help: "Slots the stream said dead whose applied transactions were undone", registers }),
    geyserRpcCallsPerTransaction: new Gauge({
      name: `${PREFIX}geyser_rpc_calls_per_streamed_transaction`,
      help: "JSON-RPC calls spent while applying streamed slots, per streamed transaction (gap fills apart): 0 when the stream carries everything",
      registers,
    }),
  };
}

/** A retry reason as a bounded label value. */
export function retryKind(reason: string): string {
  if (reason === "429" || reason === "timeout") return `rpc_${reason}`;
  if (reason.startsWith("http ")) return "rpc_http_5xx";
  return "rpc_network";
}
