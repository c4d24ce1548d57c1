import { createServer } from "node:http";
import { connect, disconnect } from "../lib/db/client";
import { embeddedDatabaseUrl } from "../lib/db/embedded-url";
import { env } from "../lib/env";
import { refuseAnotherChain } from "./chain-guard";
import { acquireLeadership } from "./leader-lock";
import { createProgramRpc } from "./rpc";
import { runScanner, type ScannerState } from "./scanner";
import { createLogger } from "../lib/log";

// npm run worker: follows PROGRAM_ID on SOLANA_RPC_URL and writes offers,
// fills and aggregates to the database.

const config = env();
const log = createLogger("worker");

const databaseUrl = config.DATABASE_URL ?? embeddedDatabaseUrl();
if (!databaseUrl || !config.SOLANA_RPC_URL || !config.PROGRAM_ID) {
  log.fatal(
    { DATABASE_URL: Boolean(databaseUrl), SOLANA_RPC_URL: Boolean(config.SOLANA_RPC_URL), PROGRAM_ID: Boolean(config.PROGRAM_ID) },
    "the worker needs DATABASE_URL, SOLANA_RPC_URL and PROGRAM_ID (npm start sets all three for the local demo cluster)",
  );
  process.exit(2);
}
const programId = config.PROGRAM_ID;

/** Soft stop: finish the batch in hand, then exit. */
const stopping = new AbortController();
/** Hard stop: abandon RPC calls under way (the batch is rolled back, nothing is half-written). */
const halt = new AbortController();
const STOP_DEADLINE_MS = 25_000;

function stop(signal: string) {
  if (stopping.signal.aborted) {
    halt.abort();
    return;
  }
  log.info({ signal }, "stopping after the batch in hand");
  stopping.abort();
  setTimeout(() => halt.abort(), STOP_DEADLINE_MS).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

const db = connect(databaseUrl, { max: 4, applicationName: "offer-book-worker" });
const sql = db.$client;
const state: ScannerState = { caughtUp: false, lastSyncAt: 0, appliedTransactions: 0, appliedFills: 0 };
let role: "standby" | "leader" | "stopping" = "standby";

if (config.WORKER_HEALTH_PORT !== undefined) {
  const health = createServer((req, res) => {
    const ready = role === "leader" && state.caughtUp && Date.now() - state.lastSyncAt < 60_000;
    const body = (status: number, value: object) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (req.url === "/health") return body(200, { status: "ok", role });
    if (req.url === "/health/ready") return body(ready ? 200 : 503, { ready, role, caughtUp: state.caughtUp });
    body(404, { error: "not found" });
  });
  health.listen(config.WORKER_HEALTH_PORT, "127.0.0.1");
  health.unref();
}

const rpc = createProgramRpc({
  url: config.SOLANA_RPC_URL,
  programId,
  commitment: config.SOLANA_COMMITMENT,
  rps: config.RPC_RPS,
  timeoutMs: config.RPC_TIMEOUT_MS,
  concurrency: config.RPC_CONCURRENCY,
  batch: config.RPC_BATCH,
  signal: halt.signal,
  log,
});

// Before any write (reconcile included): the database indexes one chain only.
await refuseAnotherChain(sql, rpc, { programId, treasury: config.TREASURY_ADDRESS }, stopping.signal);

while (!stopping.signal.aborted) {
  const lease = await acquireLeadership(sql, `offer-book-scanner:${programId}`, stopping.signal, () =>
    log.info("another worker holds the scanner lock: waiting as a hot standby"),
  );
  if (!lease) break;
  role = "leader";
  log.info({ programId, rpc: config.SOLANA_RPC_URL, commitment: config.SOLANA_COMMITMENT }, "scanning");
  const term = AbortSignal.any([stopping.signal, lease.lost]);
  await runScanner(
    sql,
    rpc,
    {
      programId,
      commitment: config.SOLANA_COMMITMENT,
      intervalMs: config.SCAN_INTERVAL_MS,
      batchSize: config.SCAN_BATCH_SIZE,
      reconcileIntervalMs: config.RECONCILE_INTERVAL_MS,
    },
    log,
    term,
    state,
  );
  await lease.release();
  role = "standby";
  if (lease.lost.aborted && !stopping.signal.aborted) log.error("lost the scanner lock; waiting to take it again");
}

role = "stopping";
await disconnect(db);
log.info("stopped");
process.exit(0);
