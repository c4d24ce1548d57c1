import { connect, disconnect } from "../lib/db/client";
import { databaseStartupError } from "../platform/postgres/connect-error";
import { embeddedDatabaseUrl } from "../platform/postgres/embedded-url";
import { env as readEnv, rpcBatchSize, type ServerEnv } from "../platform/env";
import { createLogger } from "../platform/log";
import { solanaWebsocketUrl } from "../lib/rpc/ws-url";
import { exitWithOneLine, oneLine, StartupError } from "../platform/startup-error";
import { pruneFeedEvery } from "./feed-retention";
import { serveHealth } from "./health-server";
import { refuseAnotherChain } from "./chain-guard";
import { acquireLeadership } from "./leader-lock";
import { createWorkerMetrics } from "./metrics";
import { createOutageLog } from "./outage";
import { runGeyser } from "./geyser/datasource";
import { createProgramRpc } from "./rpc";
import { runScanner, type ScannerState } from "./scan-loop";
import { startWakeup } from "./wakeup";

// npm run worker: follows PROGRAM_ID on SOLANA_RPC_URL and writes offers,
// fills and aggregates to the database.

let config: ServerEnv;
try {
  config = readEnv();
} catch (error) {
  exitWithOneLine("worker", error, 2);
}
const log = createLogger("worker");

// The last line of defence: nothing may end the process with a stack. A known
// postgres.js defect (porsager/postgres#1208, a write on a connection whose
// backend died, thrown from a timer) is survivable: the query it belonged to
// has already failed and is retried. Anything else is a bug: one line, exit 1.
process.on("uncaughtException", (error) => {
  if (error instanceof TypeError && /postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? "")) {
    log.debug({ err: error.message }, "postgres.js wrote to a closed connection (porsager/postgres#1208); the query is retried");
    return;
  }
  log.fatal({ err: error }, "uncaught exception");
  exitWithOneLine("worker", error);
});
process.on("unhandledRejection", (reason) => {
  log.error({ err: reason }, `unhandled rejection, ignored: ${oneLine(reason)}`);
});

// The direct URL when a pooler fronts DATABASE_URL: the advisory lock needs its own session.
const databaseUrl = config.DATABASE_DIRECT_URL ?? config.DATABASE_URL ?? embeddedDatabaseUrl();
const missing = [!databaseUrl && "DATABASE_URL", !config.SOLANA_RPC_URL && "SOLANA_RPC_URL", !config.PROGRAM_ID && "PROGRAM_ID"].filter(Boolean);
if (!databaseUrl || !config.SOLANA_RPC_URL || !config.PROGRAM_ID) {
  exitWithOneLine(
    "worker",
    new StartupError(`the worker needs ${missing.join(", ")}`, "set them (npm start sets all three for the local demo cluster)"),
    2,
  );
}
const programId = config.PROGRAM_ID;
const rpcUrl = config.SOLANA_RPC_URL;

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

// A database that cannot be reached or used at start is a configuration
// problem: one line and exit. Once running, an outage is waited out.
try {
  await sql`select 1 from scanner_checkpoints limit 1`;
} catch (error) {
  await sql.end({ timeout: 0 }).catch(() => {});
  exitWithOneLine("worker", databaseStartupError(databaseUrl, error));
}

const metrics = createWorkerMetrics();
const database = createOutageLog(log, "the database");
const state: ScannerState = { caughtUp: false, lastSyncAt: 0, appliedTransactions: 0, appliedFills: 0 };
let role: "standby" | "leader" | "stopping" = "standby";
const stopPruning = pruneFeedEvery(sql, config.FEED_RETENTION_HOURS, log);

if (config.WORKER_HEALTH_PORT !== undefined) {
  serveHealth(
    config.WORKER_HEALTH_PORT,
    {
      role: () => role,
      caughtUp: () => state.caughtUp,
      ready: () => role === "leader" && state.caughtUp && Date.now() - state.lastSyncAt < 60_000,
    },
    metrics,
  );
}

const rpc = createProgramRpc({
  url: rpcUrl,
  programId,
  commitment: config.SOLANA_COMMITMENT,
  rps: config.RPC_RPS,
  timeoutMs: config.RPC_TIMEOUT_MS,
  concurrency: config.RPC_CONCURRENCY,
  batch: config.RPC_BATCH,
  batchSize: rpcBatchSize(config),
  signal: halt.signal,
  log,
  metrics,
  outage: createOutageLog(log, `the RPC at ${rpcUrl}`),
});

// Before any write (reconcile included): the database indexes one chain only.
await refuseAnotherChain(sql, rpc, { programId, treasury: config.TREASURY_ADDRESS }, stopping.signal);

// New program transactions wake the scanner at once; the poll stays the fallback.
// With a Geyser stream, the stream itself is the live path: no wake-up.
const geyser = config.GEYSER_URL ? { url: config.GEYSER_URL, token: config.GEYSER_TOKEN, stallMs: config.GEYSER_STALL_MS } : null;
const wakeup = geyser ? null : startWakeup({
  url: config.SOLANA_WS_URL ?? solanaWebsocketUrl(rpcUrl),
  programId,
  commitment: config.SOLANA_COMMITMENT,
  pollMs: config.SCAN_INTERVAL_MS,
  log,
  metrics,
});

let terms = 0;
while (!stopping.signal.aborted) {
  const lease = await acquireLeadership({
    url: databaseUrl,
    name: `offer-book-scanner:${programId}`,
    applicationName: "offer-book-worker-lock",
    signal: stopping.signal,
    onWaiting: () => log.info("another worker holds the scanner lock: waiting as a hot standby"),
    database,
  });
  if (!lease) break;
  role = "leader";
  metrics.leader.set(1);
  terms++;
  if (terms === 1) log.info({ programId, rpc: rpcUrl, geyser: geyser?.url, commitment: config.SOLANA_COMMITMENT }, "scanning");
  else log.info("took the scanner lock again; resuming from the checkpoint");
  const term = AbortSignal.any([stopping.signal, lease.lost]);
  const scanner = {
    programId,
    commitment: config.SOLANA_COMMITMENT,
    intervalMs: config.SCAN_INTERVAL_MS,
    batchSize: config.SCAN_BATCH_SIZE,
    reconcileIntervalMs: config.RECONCILE_INTERVAL_MS,
  };
  const context = { sql, write: lease.write, rpc, log, metrics, database, wakeup: wakeup ?? undefined };
  if (geyser) await runGeyser(context, scanner, geyser, term, state);
  else await runScanner(context, scanner, term, state);
  const lost = lease.lost.aborted;
  await lease.release();
  role = "standby";
  metrics.leader.set(0);
  // Told as the database's outage: one line per interval, however many retries.
  if (lost && !stopping.signal.aborted) database.failed(lease.lost.reason);
}

role = "stopping";
stopPruning();
wakeup?.close();
await disconnect(db);
log.info("stopped");
process.exit(0);
