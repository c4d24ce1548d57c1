import { execFile, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { StartupError } from "../../platform/startup-error";

// The engines the scale topology runs (Debian packages), found, configured
// from deploy/ and started as this user or, when this is root, as postgres
// (PostgreSQL and PgBouncer refuse to run as root).

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, "../..");
export const DEPLOY = path.join(ROOT, "deploy");
const PG_BIN = process.env.PG_BIN || "/usr/lib/postgresql/15/bin";
export const AS_ROOT = process.getuid?.() === 0;

type Engine = "initdb" | "pg_ctl" | "pg_basebackup" | "pgbouncer" | "nginx" | "redis-server";
const PACKAGES: Record<Engine, { package: string; paths: string[] }> = {
  initdb: { package: "postgresql-15", paths: [PG_BIN] },
  pg_ctl: { package: "postgresql-15", paths: [PG_BIN] },
  pg_basebackup: { package: "postgresql-15", paths: [PG_BIN] },
  pgbouncer: { package: "pgbouncer", paths: ["/usr/sbin", "/usr/bin"] },
  nginx: { package: "nginx-light", paths: ["/usr/sbin", "/usr/bin"] },
  "redis-server": { package: "redis-server", paths: ["/usr/bin", "/usr/sbin"] },
};

/** Each engine's path; the first missing one is a StartupError naming the package to install. */
export function findEngines(): Record<Engine, string> {
  const found: Record<string, string> = {};
  for (const [name, { package: pkg, paths }] of Object.entries(PACKAGES)) {
    const dirs = [...paths, ...(process.env.PATH ?? "").split(":")];
    const hit = dirs.map((d) => path.join(d, name)).find((p) => {
      try {
        accessSync(p, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    if (!hit) throw new StartupError(`${name} is not installed`, `install ${pkg}: apt-get install ${pkg}${name.startsWith("pg") || name === "initdb" ? ` (or set PG_BIN to PostgreSQL 15's bin directory)` : ""}`);
    found[name] = hit;
  }
  return found as Record<Engine, string>;
}

/** A command as the postgres user when this is root. */
export function asPostgres(command: string, args: string[]): [string, string[]] {
  return AS_ROOT ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

export async function runTool(command: string, args: string[]): Promise<string> {
  const [cmd, argv] = asPostgres(command, args);
  try {
    const { stdout } = await run(cmd, argv, { maxBuffer: 16 << 20 });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${path.basename(command)} ${args[0] ?? ""} failed: ${(e.stderr || e.message).trim().split("\n").pop()}`);
  }
}

export async function chownToPostgres(dir: string): Promise<void> {
  if (AS_ROOT) await run("chown", ["-R", "postgres:postgres", dir]);
}

/** deploy/<name> with its {{KEY}}s filled, written to `to`. */
export function renderConfig(name: string, to: string, values: Record<string, string | number>): string {
  const text = readFileSync(path.join(DEPLOY, name), "utf8").replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`deploy/${name}: no value for {{${key}}}`);
    return String(values[key]);
  });
  writeFileSync(to, text);
  return to;
}

/** A port free now on 127.0.0.1 (the OS's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once `probe` does, polling; rejects with `what` after `ms`, or at
 * once when `child` (the process that should answer) exits first, with the
 * last line it printed, which names the cause (e.g. no production build).
 */
export async function waitFor(what: string, probe: () => Promise<boolean>, ms = 30_000, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it answered: ${lastLines.get(child) ?? "it printed nothing"}`);
    }
    if (Date.now() > deadline) throw new Error(`${what} did not come up in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function httpOk(url: string): () => Promise<boolean> {
  return async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  };
}

/** Each child's last line of output, for the error when it exits early. */
const lastLines = new WeakMap<ChildProcess, string>();

/** A child process that ends when it does; its output goes to `log` line by line. */
export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream?.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim()) continue;
        lastLines.set(child, line);
        log(line);
      }
    });
  }
  return child;
}

/** Sends `signal` and resolves when the child has exited (SIGKILL after `graceMs`). */
export function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** True once something accepts a TCP connection on 127.0.0.1:port. */
export function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
