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
  };
}

/** A retry reason as a bounded label value. */
export function retryKind(reason: string): string {
  if (reason === "429" || reason === "timeout") return `rpc_${reason}`;
  if (reason.startsWith("http ")) return "rpc_http_5xx";
  return "rpc_network";
}
