import type { ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { migrateDatabase } from "../../lib/db/migrate";
import { startLocalCluster, type LocalCluster } from "../../local/cluster";
import {
  AS_ROOT,
  chownToPostgres,
  findEngines,
  freePort,
  httpOk,
  renderConfig,
  runTool,
  startChild,
  stopChild,
  tcpOpen,
  waitFor,
} from "./engines";
import { buildOnce } from "../next-build";
import { WORKER_ARGS } from "../worker-command";

/**
 * The scale topology (docs/scale.md): a PostgreSQL primary and a streaming
 * replica, PgBouncer in transaction mode, Redis, two web processes behind
 * nginx, two workers (leader and hot standby), the local cluster as the
 * chain. Everything under `dir`, made afresh; `stop()` ends all it started.
 */
export interface ScaleOptions {
  dir: string;
  log(line: string): void;
  /** The local cluster's transactions per second. */
  txPerSecond?: number;
  history?: number;
  /** Extra environment for the web processes (REPLICA_MAX_LAG, RATE_LIMIT_RPM…). */
  webEnv?: Record<string, string>;
  proxyPort?: number;
}

export interface ScaleStack {
  proxyUrl: string;
  webUrls: string[];
  primaryUrl: string;
  replicaUrl: string;
  pooledUrl: string;
  pooledReplicaUrl: string;
  redisUrl: string;
  cluster: LocalCluster;
  webs: (ChildProcess | undefined)[];
  workers: (ChildProcess | undefined)[];
  workerHealthUrls: string[];
  startWeb(i: number): Promise<void>;
  /** One more web process on a port of its own, `env` over the others' (not behind nginx); stopped with the rest. */
  startWebWith(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }>;
  /** Where the engines' logs are (nginx-access.log: each request's status, cache status and time). */
  logDir: string;
  /** nginx's master process (its workers are its children). */
  proxyPid: number | undefined;
  startWorker(i: number): void;
  stopReplica(mode: "immediate" | "fast"): Promise<void>;
  startReplica(): Promise<void>;
  /** ALTER SYSTEM on the replica, reloaded: its replay waits this long behind each commit. */
  setApplyDelay(ms: number): Promise<void>;
  restartPgbouncer(): Promise<void>;
  stopRedis(): Promise<void>;
  startRedis(): Promise<void>;
  stop(): Promise<void>;
}

export async function startScaleStack(options: ScaleOptions): Promise<ScaleStack> {
  const bin = findEngines();
  const { dir, log } = options;
  await buildOnce({}, log, "start the topology");
  rmSync(dir, { recursive: true, force: true });
  const conf = path.join(dir, "conf");
  const logs = path.join(dir, "log");
  const runDir = path.join(dir, "run");
  for (const d of [conf, logs, runDir]) mkdirSync(d, { recursive: true });
  const port = () => freePort();
  const [primaryPort, replicaPort, bouncerPort, redisPort, web1, web2, health1, health2] = [await port(), await port(), await port(), await port(), await port(), await port(), await port(), await port()];
  const proxyPort = options.proxyPort ?? (await port());
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e: Error) => log(`stopping: ${e.message}`));
  };

  try {
    // The primary.
    await chownToPostgres(dir);
    await runTool(bin.initdb, ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    const primaryConf = renderConfig("postgresql.primary.conf", path.join(conf, "primary.conf"), { PRIMARY_PORT: primaryPort, SOCKET_DIR: runDir });
    appendFileSync(path.join(primaryDir, "postgresql.conf"), `\ninclude '${primaryConf}'\n`);
    await chownToPostgres(dir);
    await runTool(bin.pg_ctl, ["-D", primaryDir, "-l", path.join(logs, "primary.log"), "-w", "start"]);
    cleanups.push(() => runTool(bin.pg_ctl, ["-D", primaryDir, "-m", "fast", "-w", "stop"]));
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/explorer`;
    const admin = postgres(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, { onnotice: () => {} });
    await admin`create database explorer`;
    await admin.end();
    await migrateDatabase(primaryUrl);
    log(`primary on ${primaryPort}, migrated`);

    // The replica, from a base backup that writes its standby settings (-R).
    await runTool(bin.pg_basebackup, ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replicaDir, "-R", "-X", "stream", "-c", "fast"]);
    const replicaConf = renderConfig("postgresql.replica.conf", path.join(conf, "replica.conf"), { REPLICA_PORT: replicaPort });
    appendFileSync(path.join(replicaDir, "postgresql.conf"), `\ninclude '${replicaConf}'\n`);
    await chownToPostgres(dir);
    const startReplica = () => runTool(bin.pg_ctl, ["-D", replicaDir, "-l", path.join(logs, "replica.log"), "-w", "start"]).then(() => {});
    await startReplica();
    cleanups.push(() => runTool(bin.pg_ctl, ["-D", replicaDir, "-m", "fast", "-w", "stop"]).catch(() => {}));
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/explorer`;
    log(`replica on ${replicaPort} (pg_basebackup -R), streaming`);

    // PgBouncer in transaction mode.
    writeFileSync(path.join(conf, "userlist.txt"), `"postgres" ""\n`);
    const bouncerIni = renderConfig("pgbouncer.ini", path.join(conf, "pgbouncer.ini"), {
      PRIMARY_PORT: primaryPort,
      REPLICA_PORT: replicaPort,
      PGBOUNCER_PORT: bouncerPort,
      CONFIG_DIR: conf,
      LOG_DIR: logs,
      RUN_DIR: runDir,
    });
    await chownToPostgres(dir);
    let bouncer: ChildProcess | undefined;
    const startBouncer = async () => {
      bouncer = startChild(bin.pgbouncer, [...(AS_ROOT ? ["-u", "postgres"] : []), bouncerIni], process.env, (l) => log(`pgbouncer: ${l}`));
      await waitFor("PgBouncer", async () => {
        const probe = postgres(`postgres://postgres@127.0.0.1:${bouncerPort}/explorer`, { prepare: false, max: 1, connect_timeout: 1, onnotice: () => {} });
        try {
          await probe`select 1`;
          return true;
        } finally {
          await probe.end({ timeout: 1 });
        }
      });
    };
    await startBouncer();
    cleanups.push(() => stopChild(bouncer, "SIGINT"));
    const pooledUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/explorer`;
    const pooledReplicaUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/explorer_replica`;
    log(`pgbouncer on ${bouncerPort} (transaction mode)`);

    // Redis of its own.
    let redis: ChildProcess | undefined;
    const startRedis = async () => {
      redis = startChild(bin["redis-server"], ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", runDir], process.env, () => {});
      await waitFor("Redis", () => tcpOpen(redisPort));
    };
    await startRedis();
    cleanups.push(() => stopChild(redis));
    const redisUrl = `redis://127.0.0.1:${redisPort}`;

    // The chain.
    const cluster = await startLocalCluster({ seed: "scale", port: await freePort(), portFallback: true, history: options.history ?? 300, txPerSecond: options.txPerSecond ?? 4, live: true });
    cleanups.push(() => cluster.stop());
    log(`local cluster at ${cluster.url}`);

    // Workers: leader and standby, on the primary directly (the advisory lock is a session's).
    // Batches of 500 (the default is 2000): the leader-kill drill's burst of 1,200 is then more than two batches.
    const workerEnv = (health: number): NodeJS.ProcessEnv => ({ ...process.env, ...cluster.env, DATABASE_URL: primaryUrl, WORKER_HEALTH_PORT: String(health), LOG_FORMAT: "json", LOG_LEVEL: "warn", TOKEN_API_URL: "http://127.0.0.1:9", SCAN_BATCH_SIZE: "500" });
    const workers: (ChildProcess | undefined)[] = [undefined, undefined];
    const healthPorts = [health1, health2];
    const startWorker = (i: number) => {
      workers[i] = startChild(process.execPath, WORKER_ARGS, workerEnv(healthPorts[i]!), (l) => log(`worker${i + 1}: ${l}`));
    };
    startWorker(0);
    startWorker(1);
    cleanups.push(() => Promise.all(workers.map((w) => stopChild(w))));

    // Two web processes through PgBouncer, reading the replica, behind nginx.
    const webPorts = [web1, web2];
    const webs: (ChildProcess | undefined)[] = [undefined, undefined];
    const webEnv = (port: number): NodeJS.ProcessEnv => ({
      ...process.env,
      ...cluster.env,
      PORT: String(port),
      DATABASE_URL: pooledUrl,
      DATABASE_POOL_MODE: "transaction",
      DATABASE_DIRECT_URL: primaryUrl,
      DATABASE_READ_URL: pooledReplicaUrl,
      REDIS_URL: redisUrl,
      TRUST_PROXY: "true",
      COMPRESS: "false",
      TOKEN_API_URL: "http://127.0.0.1:9",
      LOG_FORMAT: "json",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.webEnv,
    });
    const startWeb = async (i: number) => {
      webs[i] = startChild(process.execPath, ["scripts/web.mjs"], webEnv(webPorts[i]!), (l) => log(`web${i + 1}: ${l}`));
      await waitFor(`web process ${i + 1}`, httpOk(`http://127.0.0.1:${webPorts[i]}/v1`), 60_000, webs[i]);
    };
    await Promise.all([startWeb(0), startWeb(1)]);
    cleanups.push(() => Promise.all(webs.map((w) => stopChild(w))));
    const startWebWith = async (env: Record<string, string>) => {
      const port = await freePort();
      const child = startChild(process.execPath, ["scripts/web.mjs"], { ...webEnv(port), ...env }, (l) => log(`web:${port}: ${l}`));
      cleanups.push(() => stopChild(child));
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`web process on ${port}`, httpOk(`${url}/v1`), 60_000, child);
      return { url, stop: () => stopChild(child) };
    };
    log(`web processes on ${webPorts.join(", ")}`);

    const nginxConf = renderConfig("nginx.conf", path.join(conf, "nginx.conf"), {
      RUN_DIR: runDir,
      LOG_DIR: logs,
      WEB1_PORT: web1,
      WEB2_PORT: web2,
      PROXY_PORT: proxyPort,
    });
    const nginx = startChild(bin.nginx, ["-c", nginxConf, "-p", runDir, "-g", `daemon off;${AS_ROOT ? " user root;" : ""}`], process.env, (l) => log(`nginx: ${l}`));
    cleanups.push(() => stopChild(nginx, "SIGQUIT"));
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    await waitFor("nginx", httpOk(`${proxyUrl}/v1`));
    log(`nginx on ${proxyUrl}`);

    return {
      proxyUrl,
      webUrls: webPorts.map((p) => `http://127.0.0.1:${p}`),
      primaryUrl,
      replicaUrl,
      pooledUrl,
      pooledReplicaUrl,
      redisUrl,
      cluster,
      webs,
      workers,
      workerHealthUrls: healthPorts.map((p) => `http://127.0.0.1:${p}`),
      startWeb,
      startWebWith,
      logDir: logs,
      proxyPid: nginx.pid,
      startWorker,
      stopReplica: (mode) => runTool(bin.pg_ctl, ["-D", replicaDir, "-m", mode, "-w", "stop"]).then(() => {}),
      startReplica,
      setApplyDelay: async (ms) => {
        const sql = postgres(replicaUrl, { max: 1, onnotice: () => {} });
        await sql.unsafe(`alter system set recovery_min_apply_delay = '${Math.round(ms)}ms'`);
        await sql`select pg_reload_conf()`;
        await sql.end();
      },
      restartPgbouncer: async () => {
        await stopChild(bouncer, "SIGTERM");
        await startBouncer();
      },
      stopRedis: () => stopChild(redis),
      startRedis,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

