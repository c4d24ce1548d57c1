import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

// Shared by the benchmarks: production servers as child processes and load at
// a fixed number of connections, reported as medians and percentiles.

export const ROOT = path.resolve(import.meta.dirname, "..");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
export const TSX_BIN = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
export const log = (line: string) => console.log(`[bench] ${line}`);

export async function ensureBuild(): Promise<void> {
  if (existsSync(path.join(ROOT, ".next/BUILD_ID")) && !process.env.BENCH_BUILD) return;
  log("building the app");
  await new Promise((resolve) => spawn(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, stdio: "inherit" }).on("exit", resolve));
}

/**
 * Starts a process; resolves once `ready` sees its output say so, or it sends
 * an IPC message, or (`ready` null) as soon as it is running.
 */
export function spawnServer(args: string[], env: Record<string, string>, ready: ((out: string) => boolean) | null): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe", "ipc"] });
    let out = "";
    if (ready === null) child.once("spawn", () => resolve(child));
    const check = (d: Buffer) => {
      out += d;
      if (ready?.(out)) resolve(child);
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", (d) => (out += d));
    child.on("message", () => resolve(child));
    child.on("exit", (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

export const startNext = (port: number, env: Record<string, string>) =>
  spawnServer([NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", LOG_LEVEL: "warn", ...env }, (out) =>
    out.includes("Ready"),
  );

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Load at `connections` for `seconds`, cycling through `paths`. */
export async function load(baseUrl: string, paths: string[], seconds: number, connections = 32): Promise<Load> {
  let i = 0;
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors + result.timeouts };
}
