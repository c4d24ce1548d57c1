import { appendFileSync, rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../../platform/postgres/embedded";
import { migrateDatabase } from "../../../lib/db/migrate";
import { createDatabaseIfMissing } from "../../../platform/postgres/resolve";
import { LOCAL_TOKEN_MINTS, startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { startWebServer, type WebServer } from "../../helpers/server";
import { tcpProxy, type TcpProxy } from "../../helpers/tcp-proxy";
import { portOutsideEphemeralRange } from "../../helpers/reserved-port";
import { REDIS_URL } from "../tokens/helpers/service";
import { scannedCount, startWorker, waitFor, type WorkerProcess } from "../../helpers/worker";

// The whole explorer as separate real processes, with handles to break each
// dependency: a PostgreSQL of its own that can be restarted (never the
// machine's: others use it), a Redis link that can be cut, a token provider
// that can fail, a worker that can be killed. Shared by the reliability suite
// (short) and `npm run bench:soak` (long).

const ROOT = path.resolve(import.meta.dirname, "../../..");

export interface RestartablePostgres {
  port: number;
  adminUrl: string;
  /** Stops the server (the data stays). */
  down(): Promise<void>;
  /** Starts it again on the same port and data. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRestartablePostgres(name: string): Promise<RestartablePostgres> {
  const dataDir = path.join(ROOT, ".data", `${name}-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const port = await portOutsideEphemeralRange(); // started again on it while the web's and worker's reconnects hammer it
  // persistent: the data must outlive a stop; fsync stays off-path for speed via settings.
  const logFile = process.env.RELIABILITY_PG_LOG;
  const log = logFile ? (line: string) => appendFileSync(logFile, `${Date.now()} ${line}\n`) : undefined;
  const start = () => startEmbeddedPostgres({ dataDir, persistent: true, port, log, settings: ["-c", "fsync=off", "-c", "synchronous_commit=off"] });
  let server: EmbeddedDatabase | undefined = await start();
  return {
    port,
    adminUrl: server.adminUrl,
    async down() {
      await server?.stop();
      server = undefined;
    },
    async up() {
      server ??= await start();
    },
    async stop() {
      await server?.stop();
      server = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface StackOptions {
  name: string;
  /** Transactions in the ledger before the worker starts. */
  history: number;
  txPerSecond: number;
  /** Route the test Redis (tests/setup/redis.ts) through a switch. */
  redis: boolean;
}

export interface Stack {
  pg: RestartablePostgres;
  databaseUrl: string;
  cluster: LocalCluster;
  standin: TokenStandin;
  redis: TcpProxy | undefined;
  web: WebServer;
  worker: WorkerProcess;
  workerEnv: Record<string, string>;
  /** Kills the worker with SIGKILL and starts a new one. */
  killAndRestartWorker(): Promise<void>;
  /** Pauses the simulator and waits until the worker has every transaction of the ledger. */
  settle(timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const pg = await startRestartablePostgres(options.name);
  cleanups.push(() => pg.stop());
  const databaseUrl = await createDatabaseIfMissing(pg.adminUrl, "offer_book");
  await migrateDatabase(databaseUrl);
  const cluster = await startLocalCluster({ seed: options.name, history: options.history, live: true, txPerSecond: options.txPerSecond });
  cleanups.push(() => cluster.stop());
  const standin = await startTokenStandin({
    limit: 1_000_000,
    extraTokens: LOCAL_TOKEN_MINTS.map((m) => ({ mint: m.address, symbol: m.symbol, name: m.name, decimals: m.decimals, usdPrice: m.referenceUsd, trending: true })),
  });
  cleanups.push(() => standin.stop());
  const redisUrl = new URL(REDIS_URL);
  const redis = options.redis ? await tcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) }) : undefined;
  if (redis) {
    await redis.open();
    cleanups.push(() => redis.close());
  }
  const web = await startWebServer({
    DATABASE_URL: databaseUrl,
    ...cluster.env,
    TOKEN_API_URL: standin.url,
    TOKEN_API_RPM: "600",
    RATE_LIMIT_RPM: "0",
    LOG_LEVEL: "warn",
    ...(redis ? { REDIS_URL: `${redis.url("redis")}/0` } : {}),
  });
  cleanups.push(() => web.stop());
  const workerEnv = { DATABASE_URL: databaseUrl, ...cluster.env };
  const stack: Stack = {
    pg,
    databaseUrl,
    cluster,
    standin,
    redis,
    web,
    worker: startWorker(workerEnv),
    workerEnv,
    async killAndRestartWorker() {
      stack.worker.kill("SIGKILL");
      await stack.worker.exited;
      stack.worker = startWorker(workerEnv);
    },
    async settle(timeoutMs) {
      cluster.pause();
      await waitFor(
        async () => (await scannedCount(databaseUrl).catch(() => -1)) === cluster.ledger.transactions.length,
        timeoutMs,
        () => `the worker did not reach ${cluster.ledger.transactions.length} transactions:\n${stack.worker.output().slice(-3000)}`,
      );
    },
    async stop() {
      stack.worker.kill("SIGKILL");
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    },
  };
  return stack;
}

/** The heaviest reads: one-filter lists, a priced book, markets, maker pages, stats, tokens and trending. */
export async function heavyPaths(stack: Stack): Promise<string[]> {
  const sql = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const makers = (await sql`select maker from offers group by maker order by count(*) desc limit 3`).map((r) => String(r.maker));
    const [pair] = await sql`select token_mint, payment_mint from offers group by 1, 2 order by count(*) desc limit 1`;
    const mints = LOCAL_TOKEN_MINTS.map((m) => m.address).join(",");
    return [
      "/v1/stats",
      "/v1/markets",
      "/v1/fills?limit=100",
      `/v1/fills?tokenMint=${pair!.token_mint}&limit=100`,
      "/v1/offers?status=open&limit=100",
      `/v1/offers?tokenMint=${pair!.token_mint}&paymentMint=${pair!.payment_mint}&sort=price&limit=100`,
      ...makers.flatMap((m) => [`/v1/makers/${m}/offers?limit=100`, `/v1/makers/${m}/stats`]),
      `/v1/tokens?mints=${mints}`,
      "/v1/trending",
    ];
  } finally {
    await sql.end();
  }
}

/** Rows the index holds twice, or that the cluster never executed: both must be zero. */
export async function indexDiscrepancies(stack: Stack): Promise<string[]> {
  const expected = stack.cluster.expectedState();
  const sql = postgres(stack.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const fills = await sql`select signature, ix_index from fills`;
    const offers = await sql`select pda from offers`;
    const [stats] = await sql`select total_fills from protocol_stats`;
    const problems: string[] = [];
    const want = new Set(expected.fills.map((f) => `${f.signature}/${f.executionIndex}`));
    const have = new Set(fills.map((f) => `${f.signature}/${f.ix_index}`));
    if (have.size !== fills.length) problems.push(`${fills.length - have.size} fills doubled`);
    const missing = [...want].filter((k) => !have.has(k));
    const extra = [...have].filter((k) => !want.has(k));
    if (missing.length) problems.push(`${missing.length} fills missing, e.g. ${missing[0]}`);
    if (extra.length) problems.push(`${extra.length} fills the cluster never executed, e.g. ${extra[0]}`);
    if (offers.length !== expected.offers.size) problems.push(`${offers.length} offers indexed, ${expected.offers.size} expected`);
    if (Number(stats?.total_fills) !== expected.fills.length) problems.push(`stats count ${stats?.total_fills} fills, ${expected.fills.length} expected`);
    return problems;
  } finally {
    await sql.end();
  }
}
