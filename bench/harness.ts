import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";

// Shared by the benchmarks: production servers as child processes and load at
// a fixed number of connections, reported as medians and percentiles.

export const ROOT = path.resolve(import.meta.dirname, "..");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
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
export function spawnServer(
  args: string[],
  env: Record<string, string>,
  ready: ((out: string) => boolean) | null,
  node = process.execPath,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe", "ipc"] });
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

/**
 * The web as `npm run web` runs it: Next.js behind web/launcher.ts, in one
 * process, on the given Node binary; `flags` go to Node before the script, and
 * `root` is the copy of the project it runs from (bench:api-gc's base).
 */
export const startNext = (port: number, env: Record<string, string>, node = process.execPath, flags: string[] = [], root = ROOT) =>
  spawnServer(
    [...flags, path.join(root, "scripts/web.mjs")],
    { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", LOG_LEVEL: "warn", ...env, PORT: String(port), HOST: "127.0.0.1" },
    (out) => out.includes("serving on"),
    node,
  );

/**
 * Load as `load` gives it, for answers streamed in chunks (a CSV export):
 * `connections` loops, each downloading whole answers one after another with
 * fetch for `seconds`, the bodies read and dropped. autocannon counted no
 * response at all of a streamed CSV export (bench:api, 2026-11-26).
 */
export async function loadDownloads(baseUrl: string, paths: string[], seconds: number, connections = 32): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const path = paths[i++ % paths.length]!;
        const sent = performance.now();
        try {
          const response = await fetch(baseUrl + path);
          const reader = response.body?.getReader();
          while (reader && !(await reader.read()).done);
          if (response.status < 300) latencies.push(performance.now() - sent);
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, requests: latencies.length + errors, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), errors };
}

/**
 * `load`, or `loadDownloads` when the paths ask for a CSV export (a streamed
 * answer autocannon does not count): what the API benches load an endpoint with.
 */
export function loadEndpoint(baseUrl: string, paths: string[], seconds: number, connections = 32): Promise<Load> {
  const streamed = paths.some((p) => p.includes("format=csv"));
  return streamed ? loadDownloads(baseUrl, paths, seconds, connections) : load(baseUrl, paths, seconds, connections);
}

export interface Load {
  rps: number;
  requests: number;
  /** Latency percentiles of the 2xx and 304 responses, in ms to 0.1 ms. */
  p50: number;
  p99: number;
  errors: number;
}

const acceptEncoding: Record<string, string> | undefined = process.env.BENCH_ACCEPT_ENCODING
  ? { "accept-encoding": process.env.BENCH_ACCEPT_ENCODING }
  : undefined;

/** The q-quantile of ascending values, to 0.1. */
const quantile = (sorted: number[], q: number) => Math.round(10 * (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)) / 10;

/**
 * Load at `connections` for `seconds`, cycling through `paths` (each with its
 * own headers from `headersByPath`, if any: the If-None-Match of its answer).
 * Latencies are taken per response (autocannon's own histogram has 1 ms steps, too coarse
 * for one connection on a fast endpoint). Requests carry no accept-encoding
 * unless BENCH_ACCEPT_ENCODING sets one (browsers send gzip, which makes
 * `next start` compress each answer; see README "Performance").
 */
export async function load(
  baseUrl: string,
  paths: string[],
  seconds: number,
  connections = 32,
  headers: Record<string, string> = {},
  headersByPath?: ReadonlyMap<string, Record<string, string>>,
): Promise<Load> {
  let i = 0;
  let failed = 0;
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        duration: seconds,
        headers: { ...acceptEncoding, ...headers },
        requests: [
          {
            setupRequest: (req) => {
              const path = paths[i++ % paths.length]!;
              const own = headersByPath?.get(path);
              return own ? { ...req, path, headers: { ...acceptEncoding, ...headers, ...own } } : { ...req, path };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on("response", (_client, statusCode, _bytes, ms) => {
      // A 304 is a full answer to a conditional request.
      if (statusCode < 300 || statusCode === 304) latencies.push(ms);
      else failed++;
    });
  });
  latencies.sort((a, b) => a - b);
  return { rps: result.requests.average, requests: result.requests.total, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), errors: failed + result.errors + result.timeouts };
}

/**
 * One connection to each server, asked in turn (server 0, server 1, server 0,
 * ...) for `seconds` in all, the same path of `paths` to each in a round: the
 * latency at one connection without queueing, side by side, so that a drift
 * of the machine's load or the database's cache over the run falls on every
 * server alike (one server measured after the other had it fall on one).
 * Requests carry BENCH_ACCEPT_ENCODING as `load`'s do.
 */
export async function loadPaired(baseUrls: string[], paths: string[], seconds: number): Promise<Load[]> {
  const agents = baseUrls.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const latencies = baseUrls.map((): number[] => []);
  const errors = baseUrls.map(() => 0);
  const ask = async (url: string, agent: http.Agent) => {
    const sent = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(url, { agent, headers: acceptEncoding }, (res) => res.on("data", () => {}).on("end", () => resolve(res.statusCode ?? 0)).on("error", reject))
        .on("error", reject);
    });
    return { status, ms: performance.now() - sent };
  };
  const started = performance.now();
  const until = started + seconds * 1000;
  for (let i = 0; performance.now() < until; i++) {
    const path = paths[i % paths.length]!;
    // Every other round the other way round: the second asked finds the path's pages freshly cached.
    const order = i % 2 === 0 ? baseUrls.keys() : [...baseUrls.keys()].reverse();
    for (const s of order) {
      const answer = await ask(baseUrls[s]! + path, agents[s]!).catch(() => undefined);
      if (answer && (answer.status < 300 || answer.status === 304)) latencies[s]!.push(answer.ms);
      else errors[s]!++;
    }
  }
  agents.forEach((agent) => agent.destroy());
  const elapsed = (performance.now() - started) / 1000;
  return latencies.map((values, s) => {
    values.sort((a, b) => a - b);
    return { rps: values.length / elapsed, requests: values.length + errors[s]!, p50: quantile(values, 0.5), p99: quantile(values, 0.99), errors: errors[s]! };
  });
}

/** CPU seconds (user + system) a process has used so far; Linux only, else NaN. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

/**
 * Each process's CPU while nothing asks it anything, in ms per second, over
 * `seconds` (all at once): what it spends on its own (timers, the live feed's
 * connection, metrics) whatever the load. Linux only, else NaN.
 */
export async function idleCpuRates(pids: (number | undefined)[], seconds: number): Promise<number[]> {
  const before = pids.map(cpuSeconds);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - started) / 1000;
  return pids.map((pid, i) => ((cpuSeconds(pid) - before[i]!) * 1000) / elapsed);
}
