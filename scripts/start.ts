import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { migrateDatabase } from "../lib/db/migrate";
import { resolveDatabase } from "../lib/db/resolve";
import { env } from "../lib/env";
import { LOCAL_TOKEN_MINTS, startLocalCluster } from "../local/cluster";
import { startTokenStandin } from "../local/tokens";
import { createLogger } from "../lib/log";
import { describeKeptLedger, localnetDataDir, startFreshUnlessLedgerAgrees } from "./local-chain";

// `npm start`: everything, on embedded defaults where nothing is configured.
// - DATABASE_URL unset: an embedded PostgreSQL under .data/pg.
// - SOLANA_RPC_URL unset: the local demo cluster, with a living market.
// - TOKEN_API_URL unset on the local cluster: the local token provider stand-in.
// Then migrations, a build if there is none, the worker and the web server,
// until SIGINT/SIGTERM stops them all.

const log = createLogger("start");
const ROOT = path.resolve(import.meta.dirname, "..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
let stopping = false;

function run(name: string, args: string[], extraEnv: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio: "inherit" });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    log.error({ name, code, signal }, "a component stopped; stopping everything");
    void shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info("stopping");
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 30_000).unref();
        }),
    ),
  );
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log.error({ err: error }, "cleanup failed"));
  process.exit(code);
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
// A failure while starting still stops what did start (the embedded database above all).
process.on("unhandledRejection", (error) => {
  log.fatal({ err: error }, "could not start");
  void shutdown(1);
});

const config = env();
const database = await resolveDatabase(config.DATABASE_URL, (line) => log.debug({ postgres: line }));
if (database.embedded) cleanups.push(() => database.embedded!.stop());
log.info({ database: config.DATABASE_URL ? "DATABASE_URL" : "embedded (.data/pg)" }, "database ready");
await migrateDatabase(database.url);

const shared: Record<string, string> = { DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1" };

if (!config.SOLANA_RPC_URL) {
  // The demo's chain is kept under .data/localnet: a restart continues it; a ledger and index of two chains start afresh.
  const dataDir = localnetDataDir(ROOT);
  const fresh = await startFreshUnlessLedgerAgrees(database.url, dataDir);
  if (fresh) log.warn(fresh);
  const kept = describeKeptLedger(dataDir);
  if (kept) log.info(kept);
  const cluster = await startLocalCluster({
    dataDir,
    seed: process.env.LOCALNET_SEED || "localnet",
    port: Number(process.env.LOCALNET_PORT ?? 8899),
    history: Number(process.env.LOCALNET_HISTORY ?? 2000),
    txPerSecond: Number(process.env.LOCALNET_TPS ?? 3),
    live: true,
  });
  cleanups.push(() => cluster.stop());
  Object.assign(shared, cluster.env, { LOCAL_DEMO_CLUSTER: "true" });
  log.info(
    { url: cluster.url, programId: cluster.programId, continued: cluster.resumed?.transactions ?? false },
    cluster.resumed ? "local demo cluster continued from its kept ledger (no SOLANA_RPC_URL)" : "local demo cluster started (no SOLANA_RPC_URL)",
  );

  if (!process.env.TOKEN_API_URL) {
    // The local tokens are known to the stand-in, but for one left unknown so the
    // explorer shows how it reads an unknown mint's decimals from the chain.
    const known = LOCAL_TOKEN_MINTS.filter((m) => m.symbol !== "LTT");
    const provider = await startTokenStandin({
      port: Number(process.env.TOKENS_PORT ?? 0),
      extraTokens: known.map((m) => ({ mint: m.address, symbol: m.symbol, name: m.name, decimals: m.decimals, usdPrice: m.referenceUsd, trending: true })),
    });
    cleanups.push(() => provider.stop());
    shared.TOKEN_API_URL = provider.url;
    log.info({ url: provider.url }, "local token provider stand-in started (no TOKEN_API_URL)");
  }
} else if (!config.PROGRAM_ID) {
  log.fatal("SOLANA_RPC_URL is set: set PROGRAM_ID (and TREASURY_ADDRESS) of the program to follow too");
  process.exit(2);
}

if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) {
  log.info("no build yet: building the app once");
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...shared } });
    build.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build exited with ${code}`))));
  });
}

run("worker", ["scripts/worker.mjs"], shared);
run("web", [NEXT_BIN, "start", "-p", String(config.PORT)], shared);
log.info({ url: `http://localhost:${config.PORT}` }, "explorer started");
