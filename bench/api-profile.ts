import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "../platform/postgres/embedded";
import { benchTokenEnv, startBenchTokenStandin } from "./api-data";
import { cpuSeconds, loadEndpoint, log, NEXT_BIN, ROOT } from "./harness";

// npm run bench:api-profile — where the web process's CPU goes on one /v1
// endpoint under load: the server runs under `node --cpu-prof`, takes
// PROFILE_SECONDS of load at PROFILE_CONNECTIONS (32), stops, and its profile is summed
// by self time per part (Next, the postgres driver, Node's HTTP and streams,
// zlib and crypto, the garbage collector, our own code) and per function.
// Run on three servers: the web launcher (`npm run web`, /v1 on node:http),
// the bare node:http + postgres server bench/api.ts sets beside it (the same
// lib/ query with nothing around it: the yardstick, so that the web's extra
// self time shows function by function), and `next start` (the /v1 route
// handlers under Next's router: what the launcher did for every /v1 request
// before the route table).
// DATABASE_URL: the database to read (bench/api.ts's, e.g. offer_book_bench).
// The web gets bench/api.ts's token stand-in (every bench mint's decimals), so
// that the adapters and units=human answer as they do in bench:api.
// PROFILE_PATH: the URL path and query to load (default /v1/fills).
// PROFILE_SECONDS: seconds of load (default 10).
// PROFILE_SERVERS: which to run, comma-separated (default web,bare,next).
// PROFILE_TOP: how many functions to list by self time (default 12).
// PROFILE_CONNECTIONS: connections of the load (default 32; 1 for a long export).

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const TARGET = process.env.PROFILE_PATH ?? "/v1/fills";
const SERVERS = new Set((process.env.PROFILE_SERVERS ?? "web,bare,next").split(","));
const TOP = Number(process.env.PROFILE_TOP ?? 12);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 32);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

function part(url: string, name: string): string {
  if (name === "(garbage collector)") return "garbage collector";
  if (name === "(idle)" || name === "(program)" || name === "(root)") return name;
  if (url.includes("node_modules/next/")) return "Next (router, request/response)";
  if (url.includes("/.next/server/")) return "Next's server bundles (the route code, compiled in with Next's app-route runtime)";
  if (url.includes("node_modules/postgres/")) return "postgres driver";
  if (url.includes("node_modules/zod/")) return "zod (query schemas)";
  if (url.includes("node_modules/")) return `other packages`;
  if (url.startsWith("node:zlib") || url.startsWith("node:crypto") || url.includes("internal/crypto")) return "zlib, crypto";
  if (url.startsWith("node:") || url === "") return "Node (http, net, streams, native)";
  return "our code (web/, lib/)";
}

async function profile(label: string, args: string[], env: Record<string, string>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "api-profile-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, ...args], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", LOG_LEVEL: "warn", RATE_LIMIT_RPM: "1000000000", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const exit = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`${label} exited (${code}) before it served`))));
  for (let ready = false; !ready; ) {
    await Promise.race([exit, Promise.resolve()]);
    await new Promise((r) => setTimeout(r, 200));
    ready = await fetch(`${url}/v1`).then((r) => r.ok, () => false);
  }
  await loadEndpoint(url, [TARGET], 2, CONNECTIONS); // warm-up, unmeasured
  const before = cpuSeconds(child.pid);
  const result = await loadEndpoint(url, [TARGET], SECONDS, CONNECTIONS);
  const cpu = ((cpuSeconds(child.pid) - before) * 1e6) / result.requests;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
  // The last written: on Node 24 scripts/web.mjs replaces its process with one given V8 flags (process.execve), and
  // the first process, gone before it served anything, leaves a profile of its own, named a moment earlier.
  const file = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort().at(-1);
  if (!file) throw new Error(`${label}: no profile written in ${dir}`);
  const { nodes, samples, timeDeltas, endTime } = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    endTime: number;
  };
  // Only the samples of the measured load (the process exits right after it): start-up's module loading is not a request's.
  const times: number[] = [];
  for (let t = endTime - timeDeltas.reduce((a, b) => a + b, 0), i = 0; i < samples.length; i++) times.push((t += timeDeltas[i]!));
  const from = endTime - SECONDS * 1e6;
  const hits = new Map<number, number>();
  samples.forEach((id, i) => {
    if (times[i]! >= from) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const node of nodes) {
    const n = hits.get(node.id) ?? 0;
    if (!n || node.callFrame.functionName === "(idle)") continue;
    busy += n;
    const p = part(node.callFrame.url, node.callFrame.functionName);
    parts.set(p, (parts.get(p) ?? 0) + n);
    const where = `${node.callFrame.functionName || "(anonymous)"} ${path.basename(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    functions.set(where, (functions.get(where) ?? 0) + n);
  }
  const pct = (n: number) => `${((100 * n) / busy).toFixed(1).padStart(5)} %`;
  console.log(`\n${label}: GET ${TARGET}, ${result.rps.toFixed(0)} req/s at ${CONNECTIONS} connections, ${cpu.toFixed(0)} µs of CPU a request (profiler on)`);
  for (const [name, n] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(n)}  ${name}`);
  console.log("  top functions by self time:");
  for (const [name, n] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`    ${pct(n)}  ${name}`);
}

const DATABASE_URL = process.env.DATABASE_URL ?? "";
if (!DATABASE_URL) throw new Error("set DATABASE_URL to the bench's database (bench/api.ts makes offer_book_bench)");
const sql = postgres(DATABASE_URL, { max: 1 });
const tokenMints = (await sql`select distinct token_mint as v from offers`).map((r) => String(r.v));
await sql.end();
const provider = await startBenchTokenStandin(tokenMints);
const env = { DATABASE_URL, DATABASE_POOL_SIZE: "10", ...benchTokenEnv(provider.url) };
log(`profiling GET ${TARGET} for ${SECONDS} s each`);
if (SERVERS.has("web")) await profile("web launcher (scripts/web.mjs)", [path.join(ROOT, "scripts/web.mjs")], env);
if (SERVERS.has("bare")) await profile("bare node:http + postgres (bench/bare-main.ts)", ["--import", "tsx", path.join(ROOT, "bench/bare-main.ts")], env);
if (SERVERS.has("next")) await profile("next start (route handlers under Next's router)", [NEXT_BIN, "start", "-H", "127.0.0.1"], env);
await provider.stop();
process.exit(0);
