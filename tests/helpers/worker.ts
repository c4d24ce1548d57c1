import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import postgres from "postgres";
import { WORKER_ARGS } from "../../scripts/worker-command";
import { until } from "./until";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

/** `npm run worker` as its own process. */
export function startWorker(env: Record<string, string>): WorkerProcess {
  // In-process TypeScript loading (not the tsx CLI, which wraps the script in a
  // child process): signals reach the worker itself, as in production.
  const child = spawn(process.execPath, WORKER_ARGS, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "info", SCAN_INTERVAL_MS: "200", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited, kill: (signal = "SIGTERM") => child.kill(signal) };
}

/** Polls until `check` returns true, or fails with `describe()` after the timeout. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  await until("the condition", check, { withinMs: timeoutMs, everyMs: 150, detail: describe });
}

/**
 * A metric on a worker's /metrics (WORKER_HEALTH_PORT), summed over its label
 * sets; undefined while nothing answers there or the metric has no sample.
 */
export async function workerMetric(port: number, name: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  } catch {
    return undefined;
  }
  const samples = text.split("\n").filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`));
  return samples.length === 0 ? undefined : samples.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

/**
 * For clients that poll while PostgreSQL restarts: postgres.js fetches the
 * array types on connect without awaiting that query, so a connection reset
 * in that moment is an unhandled rejection (which fails the whole vitest run)
 * rather than an error of the query that asked. These clients send no arrays.
 */
export const pollingClient = { fetch_types: false } as const;

/** How many of the program's transactions the worker has applied. */
export async function scannedCount(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, ...pollingClient });
  try {
    const [row] = await sql`select count(*)::int as n from scanned_transactions`;
    return row!.n;
  } finally {
    await sql.end();
  }
}
