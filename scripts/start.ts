import path from "node:path";
import { dataDir } from "../platform/data-dir";
import { numberSetting } from "../platform/number-setting";
import { databaseStartupError } from "../platform/postgres/connect-error";
import { releaseSignalsFromEmbeddedPostgres } from "../platform/postgres/embedded";
import { migrateDatabase } from "../lib/db/migrate";
import { sleep } from "../lib/resilience";
import { EMBEDDED_DATA_DIR, resolveDatabase } from "../platform/postgres/resolve";
import { env } from "../platform/env";
import { createLogger } from "../platform/log";
import { requireFreePort, waitForFreePort } from "../platform/ports";
import { StartupError, exitWithOneLine, oneLine } from "../platform/startup-error";
import { EXIT_REFUSED } from "../worker/chain-guard";
import { buildOnce } from "./next-build";
import { takeCheckoutLock, type CheckoutLock } from "./start/checkout-lock";
import { Supervisor, type PartSpec } from "./start/supervisor";
import { WORKER_ARGS } from "./worker-command";

// `npm start`: everything, on embedded defaults where nothing is configured.
// - DATABASE_URL unset: an embedded PostgreSQL under .data/pg.
// - SOLANA_RPC_URL unset: the local demo cluster, with a living market.
// - TOKEN_API_URL unset on the local cluster: the local token provider stand-in.
// Then migrations, a build if there is none, the worker and the web server,
// kept running (a part that dies is restarted) until SIGINT/SIGTERM stops
// them all. A failure while starting is one line on stderr, a non-zero exit,
// and whatever had started is stopped.

// A bad variable is one line too (the logger itself reads the environment).
try {
  env();
} catch (error) {
  exitWithOneLine("npm start", error, 2);
}
const log = createLogger("start");
const ROOT = path.resolve(import.meta.dirname, "..");
const DATA_DIR = dataDir();
const cleanups: (() => Promise<unknown>)[] = [];
const supervisor = new Supervisor(log, (line) => void shutdown(1, line));
let lock: CheckoutLock | undefined;
let stopping = false;

async function shutdown(code: number, line?: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (!line) log.info("stopping");
  await supervisor.stopAll();
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log.error(`cleanup failed: ${oneLine(error)}`));
  lock?.release();
  if (line) process.stderr.write(`npm start: ${line}\n`);
  process.exit(code);
}

// This process stops its cluster itself, after the parts have finished.
releaseSignalsFromEmbeddedPostgres();
process.on("SIGHUP", () => void shutdown(0));
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
process.on("unhandledRejection", (error) => void shutdown(1, oneLine(error)));
process.on("uncaughtException", (error) => void shutdown(1, oneLine(error)));
// On Ctrl-C every part gets the signal from the terminal too, and may be gone
// before shutdown() has awaited its way to the end; with nothing left to wait
// on, Node can end this process mid-shutdown (seen in about half of the stops
// of a newcomer's run). The lock goes with it however it ends, so the next
// start does not take a stopped one for a killed one.
process.once("exit", () => lock?.release());

/**
 * The local cluster's port, and its PubSub WebSocket's on the next port (where
 * @solana/web3.js looks for it, as a validator's 8900 beside 8899):
 * LOCALNET_PORT when set (either taken: a clear failure, found before
 * anything heavy starts); otherwise 8899 as a validator's, preferred only:
 * the cluster binds it when it starts and takes another free pair when 8899
 * or 8900 is in use (a solana-test-validator already running, or another
 * start at the same moment), and the worker is pointed at whichever it is.
 * Null when none was asked for.
 */
async function localClusterPort(): Promise<number | null> {
  const explicit = process.env.LOCALNET_PORT;
  if (explicit) {
    const port = Number(explicit);
    if (!Number.isInteger(port) || port < 0 || port > 65534) throw new StartupError(`LOCALNET_PORT must be a port number, got "${explicit}"`, "set it to a free port, or unset it for 8899");
    if (port) {
      await requireFreePort(port, "LOCALNET_PORT", "the local cluster");
      await requireFreePort(port + 1, "LOCALNET_PORT", "the local cluster's WebSocket, LOCALNET_PORT + 1");
    }
    return port;
  }
  return null;
}

/** How the web server is launched: the one place to change it. */
function webPart(shared: Record<string, string>, port: number): PartSpec {
  return { name: "web", args: ["scripts/web.mjs"], env: { ...shared, PORT: String(port) }, cwd: ROOT };
}

function workerPart(shared: Record<string, string>): PartSpec {
  // 2: missing or invalid configuration; 3: the database indexes another chain (worker/chain-guard.ts).
  return { name: "worker", args: WORKER_ARGS, env: shared, cwd: ROOT, finalExitCodes: [2, EXIT_REFUSED] };
}

/** Logs once the web answers, so a person knows when to open the URL. */
async function announceWhenServing(url: string): Promise<void> {
  for (let i = 0; i < 600 && !stopping; i++) {
    try {
      await (await fetch(`${url}/v1`)).arrayBuffer();
      log.info(`explorer ready at ${url}`);
      return;
    } catch {
      await sleep(500);
    }
  }
}

async function main(): Promise<void> {
  const config = env();
  const embedded = !config.DATABASE_URL;
  lock = await takeCheckoutLock(DATA_DIR, embedded ? EMBEDDED_DATA_DIR : undefined, log);
  // Parts of a start killed with kill -9 stop by themselves (see exit-with-parent.mjs); give the web a moment to let go of its port.
  if (lock.earlierStartDied) await waitForFreePort(config.PORT, 5_000);

  // Ports first, before anything heavy starts.
  await requireFreePort(config.PORT, "PORT", "the web server");
  const localCluster = !config.SOLANA_RPC_URL;
  if (!localCluster && !config.PROGRAM_ID) throw new StartupError("SOLANA_RPC_URL is set but PROGRAM_ID is not", "set PROGRAM_ID (and TREASURY_ADDRESS) of the program to follow, or unset SOLANA_RPC_URL for the local demo cluster");
  const tokensPort = numberSetting("TOKENS_PORT", 0);
  const standin = localCluster && !process.env.TOKEN_API_URL;
  if (standin && tokensPort) await requireFreePort(tokensPort, "TOKENS_PORT", "the token stand-in");
  const clusterPort = localCluster ? await localClusterPort() : null;
  const history = numberSetting("LOCALNET_HISTORY", 2000);
  const txPerSecond = numberSetting("LOCALNET_TPS", 3);

  const database = await resolveDatabase(config.DATABASE_URL, (line) => log.debug({ postgres: line }));
  if (database.embedded) cleanups.push(() => database.embedded!.stop());
  await migrateDatabase(database.url).catch((error) => {
    throw databaseStartupError(database.url, error, embedded ? "the embedded database" : "DATABASE_URL");
  });
  log.info(`database ready (${embedded ? "embedded, .data/pg" : "DATABASE_URL"}), migrations applied`);

  const shared: Record<string, string> = { DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1" };

  if (localCluster) {
    // The local stand-ins load only here, when this start uses them.
    const { describeKeptLedger, localnetDataDir, startFreshUnlessLedgerAgrees } = await import("./start/local-chain");
    const { LOCAL_TOKEN_MINTS, movedPortsLine, preferredClusterPort, startLocalCluster } = await import("../local/cluster");
    // The demo's chain is kept under .data/localnet: a restart continues it; a ledger and index of two chains start afresh.
    const ledgerDir = localnetDataDir();
    const fresh = await startFreshUnlessLedgerAgrees(database.url, ledgerDir);
    if (fresh) log.warn(fresh);
    const kept = describeKeptLedger(ledgerDir);
    if (kept) log.info(kept);
    const cluster = await startLocalCluster({
      dataDir: ledgerDir,
      seed: process.env.LOCALNET_SEED || "localnet",
      port: clusterPort ?? preferredClusterPort(),
      portFallback: clusterPort === null,
      history,
      txPerSecond,
      live: true,
      archiveHistory: true, // the demo's ledger grows for as long as it runs
    });
    cleanups.push(() => cluster.stop());
    const moved = movedPortsLine(cluster);
    if (moved) log.warn(`${moved}, and the worker follows it there (set LOCALNET_PORT to choose)`);
    Object.assign(shared, cluster.env, { LOCAL_DEMO_CLUSTER: "true" });
    const how = cluster.resumed ? `continued from its kept ledger (${cluster.resumed.transactions} transactions)` : "started";
    log.info(`local demo cluster ${how} at ${cluster.url}, WebSocket ${cluster.wsUrl} (no SOLANA_RPC_URL), program ${cluster.programId}`);
    // The fastest path: the worker takes live transactions from a Yellowstone stream of the same ledger.
    const { startYellowstone } = await import("../local/cluster/yellowstone/server");
    const yellowstone = await startYellowstone(cluster.ledger, { replaySlots: numberSetting("LOCALNET_GEYSER_REPLAY_SLOTS", 300) });
    cleanups.push(() => yellowstone.stop());
    Object.assign(shared, { GEYSER_URL: yellowstone.url });
    log.info(`local Yellowstone (Geyser gRPC) server at ${yellowstone.url}: the worker follows its stream`);

    if (standin) {
      const { startTokenStandin } = await import("../local/tokens");
      // The local tokens are known to the stand-in, but for one left unknown so the
      // explorer shows how it reads an unknown mint's decimals from the chain.
      const known = LOCAL_TOKEN_MINTS.filter((m) => m.symbol !== "LTT");
      const provider = await startTokenStandin({
        port: tokensPort,
        extraTokens: known.map((m) => ({ mint: m.address, symbol: m.symbol, name: m.name, decimals: m.decimals, usdPrice: m.referenceUsd, trending: true })),
      });
      cleanups.push(() => provider.stop());
      shared.TOKEN_API_URL = provider.url;
      log.info(`local token provider stand-in at ${provider.url} (no TOKEN_API_URL)`);
    }
  }

  await buildOnce(shared, (line) => log.info(line), "npm start");
  // Checked again: the build took a while, and something may have taken the port meanwhile.
  await requireFreePort(config.PORT, "PORT", "the web server");
  supervisor.start(workerPart(shared));
  supervisor.start(webPart(shared, config.PORT));
  const url = `http://localhost:${config.PORT}`;
  lock.setUrl(url);
  log.info(`explorer starting at ${url} (Ctrl-C stops everything)`);
  void announceWhenServing(url);
}

try {
  await main();
} catch (error) {
  await shutdown(1, oneLine(error));
}
