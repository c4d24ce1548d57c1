import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { build } from "esbuild";
import { freePort } from "../platform/postgres/embedded";
import { benchTokenEnv, startBenchTokenStandin } from "./api-data";
import { benchEndpoints, benchSamples } from "./api-endpoints";
import { cpuSeconds, idleCpuRates, loadEndpoint, log, ROOT, spawnServer, startNext } from "./harness";

// npm run bench:api-gc — what the collector costs the web and the bare server
// on one endpoint of bench:api, side by side: both run with `--trace-gc` on the
// same Node, in turn (GC_ROUNDS slices of GC_SECONDS each at 32 connections,
// every other round the bare server first), and each slice counts its
// requests, CPU a request (net of the process's idle rate), scavenges and
// mark-compacts (and their pauses) and the bytes allocated a request (each
// collection's heap size before it, less the size after the previous one).
// With GC_SAMPLE=1 a last slice each runs V8's sampling heap profiler
// (bench/alloc-sampler.mjs, freed objects kept) and lists the functions that
// allocate the most, in bytes a request.
// DATABASE_URL: the bench's database. GC_ENDPOINT: a bench:api endpoint's name
// (bench/api-endpoints.ts) or one of ALIASES' short names.
// GC_NODE: the Node binary (default this one). GC_WEB_FLAGS: node flags for
// the web alone (e.g. --min-semi-space-size=16), space-separated.
// GC_BASE_ROOT: another copy of the project (the base of a change, its
// node_modules and .next linked): its web runs as a third server, "base",
// with GC_BASE_FLAGS.
// GC_BARE_IN_WEB=1: the bare server also runs inside the web's process
// (bench/bare-preload.ts), as "in-web": its CPU against the bare server's
// alone is what the web's process costs the same code, and against the
// web's route what the route costs. GC_BALLAST_MB: one more bare server,
// "ballast", holding that many MB of long-lived objects (bench/ballast.ts).

const SECONDS = Number(process.env.GC_SECONDS ?? 6);
const ROUNDS = Number(process.env.GC_ROUNDS ?? 3);
const NODE = process.env.GC_NODE ?? process.execPath;
const WEB_FLAGS = (process.env.GC_WEB_FLAGS ?? "").split(/\s+/).filter(Boolean);
const SAMPLER = path.join(ROOT, "bench/alloc-sampler.mjs");
const BASE_ROOT = process.env.GC_BASE_ROOT;
const BASE_FLAGS = (process.env.GC_BASE_FLAGS ?? "").split(/\s+/).filter(Boolean);
const BARE_IN_WEB = process.env.GC_BARE_IN_WEB === "1";
const BALLAST_MB = Number(process.env.GC_BALLAST_MB ?? 0);

/** bench/bare-preload.ts as one file the web's Node can import (the web runs bundled, without tsx); removed at exit. */
async function bundleBarePreload(): Promise<string> {
  const outfile = path.join(ROOT, ".build", `bench-bare-preload-${process.pid}.mjs`);
  await build({ entryPoints: [path.join(ROOT, "bench/bare-preload.ts")], bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", outfile, logLevel: "warning" });
  process.on("exit", () => rmSync(outfile, { force: true }));
  return outfile;
}

/** Short names for bench:api's endpoints (bench/api-endpoints.ts); GC_ENDPOINT also takes bench:api's own name. */
const ALIASES: Record<string, string> = {
  "candles-1m-day": "/v1/candles (1m, a day)",
  "candles-1m-empty": "/v1/candles (1m, a day, includeEmpty)",
  "candles-1h-chart": "/v1/candles (1h, human+invert+empty)",
  "candles-1d-year": "/v1/candles (1d, a year)",
  "makers-7d": "/v1/makers (7d, by offers)",
  "makers-all": "/v1/makers (all)",
  tickers: "/v1/coingecko/tickers",
  pairs: "/v1/coingecko/pairs",
  "historical-trades": "/v1/coingecko/historical_trades",
};

/** One collection from a `--trace-gc` line: its kind, the heap (MB) before and after, its pause (ms). */
type Collection = { kind: "scavenge" | "full" | "other"; before: number; after: number; ms: number };
const GC_LINE = /ms: ([A-Za-z-]+(?: [A-Za-z-]+)?)(?: \([a-z ]+\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB,.*?([\d.]+) \/ [\d.]+ ms/;

function collector(child: ChildProcess): Collection[] {
  const seen: Collection[] = [];
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      const m = GC_LINE.exec(line);
      if (!m) continue;
      const kind = m[1] === "Scavenge" ? "scavenge" : m[1]!.startsWith("Mark-Compact") ? "full" : "other";
      seen.push({ kind, before: Number(m[2]), after: Number(m[3]), ms: Number(m[4]) });
    }
  });
  return seen;
}

type Slice = { rps: number; requests: number; cpu: number; net: number; scavenges: number; scavengeMs: number; fulls: number; fullMs: number; allocKb: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main() {
  const url = process.env.DATABASE_URL;
  const asked = process.env.GC_ENDPOINT ?? "candles-1m-day";
  const name = ALIASES[asked] ?? asked;
  if (!url) throw new Error("set DATABASE_URL (the bench:api database)");
  const s = await benchSamples(url);
  const paths = benchEndpoints(s).find(([n]) => n === name)?.[1];
  if (!paths) throw new Error(`GC_ENDPOINT: ${asked} is not one of bench:api's endpoints (or ${Object.keys(ALIASES).join(", ")})`);
  const { tokens } = s;
  const provider = await startBenchTokenStandin(tokens);
  const sampleFile = (who: string) => path.join(tmpdir(), `api-gc-${process.pid}-${who}.json`);
  const common = { DATABASE_URL: url, DATABASE_POOL_SIZE: "10", LOG_LEVEL: "warn", ...benchTokenEnv(provider.url) };
  const inWebPort = await freePort();
  const preload = BARE_IN_WEB ? ["--import", await bundleBarePreload()] : [];
  const startWeb = async (root: string, who: string, flags: string[]) => {
    const port = await freePort();
    const env = { ...common, RATE_LIMIT_RPM: "1000000000", ALLOC_SAMPLE_FILE: sampleFile(who), BARE_IN_WEB_PORT: String(inWebPort) };
    const child = await startNext(port, env, NODE, ["--trace-gc", "--import", SAMPLER, ...(who === "web" ? preload : []), ...flags], root);
    return { who, url: `http://127.0.0.1:${port}`, child, gcs: collector(child) };
  };
  const webs = [await startWeb(ROOT, "web", WEB_FLAGS)];
  if (BARE_IN_WEB) webs.push({ ...webs[0]!, who: "in-web", url: `http://127.0.0.1:${inWebPort}`, gcs: collector(webs[0]!.child) });
  if (BASE_ROOT) webs.push(await startWeb(BASE_ROOT, "base", BASE_FLAGS));
  const startBare = async (who: string, ballastMb: number) => {
    const port = await freePort();
    const child = await spawnServer(
      ["--trace-gc", "--import", "tsx", "--import", SAMPLER, "bench/bare-main.ts"],
      { ...common, PORT: String(port), ALLOC_SAMPLE_FILE: sampleFile(who), BARE_BALLAST_MB: String(ballastMb) },
      () => false,
      NODE,
    );
    return { who, url: `http://127.0.0.1:${port}`, child, gcs: collector(child) };
  };
  const bares = [await startBare("bare", 0), ...(BALLAST_MB > 0 ? [await startBare("ballast", BALLAST_MB)] : [])];
  const servers = [...webs, ...bares];
  try {
    for (const s of servers) await fetch(`${s.url}/v1/stats`).then((r) => r.arrayBuffer());
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const idle = await idleCpuRates(servers.map((s) => s.child.pid), 5);
    const idleText = servers.map((s, i) => `${s.who} ${idle[i]!.toFixed(1)}`).join(", ");
    log(`${name} on ${NODE}, web flags [${WEB_FLAGS.join(" ")}], base [${BASE_FLAGS.join(" ")}]; idle ms/s ${idleText}; ${ROUNDS} x ${SECONDS} s each`);
    for (const s of servers) await loadEndpoint(s.url, paths, 2);
    const slices = new Map<string, Slice[]>(servers.map((s) => [s.who, []]));
    const slice = async (i: number) => {
      const s = servers[i]!;
      const from = s.gcs.length;
      const before = cpuSeconds(s.child.pid);
      const started = performance.now();
      const result = await loadEndpoint(s.url, paths, SECONDS);
      const elapsed = (performance.now() - started) / 1000;
      const cpu = ((cpuSeconds(s.child.pid) - before) * 1e6) / result.requests;
      await new Promise((resolve) => setTimeout(resolve, 200)); // the trace's last lines
      const gcs = s.gcs.slice(from);
      let alloc = 0;
      for (let k = Math.max(from, 1); k < s.gcs.length; k++) alloc += Math.max(0, s.gcs[k]!.before - s.gcs[k - 1]!.after);
      const of = (kind: Collection["kind"]) => gcs.filter((g) => g.kind === kind);
      slices.get(s.who)!.push({
        rps: result.rps,
        requests: result.requests,
        cpu,
        net: cpu - (idle[i]! * 1000 * elapsed) / result.requests,
        scavenges: (1000 * of("scavenge").length) / result.requests,
        scavengeMs: (1000 * of("scavenge").reduce((t, g) => t + g.ms, 0)) / result.requests,
        fulls: of("full").length + of("other").length,
        fullMs: (1000 * [...of("full"), ...of("other")].reduce((t, g) => t + g.ms, 0)) / result.requests,
        allocKb: (alloc * 1024) / result.requests,
      });
    };
    // Each round in another order (a rotation, then reversed), so that a drift of the machine's load falls on every server.
    const order = (round: number) => {
      const rotated = servers.map((_, i) => (i + (round >> 1)) % servers.length);
      return round % 2 === 0 ? rotated : rotated.reverse();
    };
    for (let round = 0; round < ROUNDS; round++) for (const i of order(round)) await slice(i);
    console.log("server   req/s  cpu µs  net µs  scav/1000 req  scav µs/req  full GCs  full µs/req  alloc KB/req   (medians of the slices)");
    for (const s of servers) {
      const xs = slices.get(s.who)!;
      const m = (k: keyof Slice) => median(xs.map((x) => x[k]));
      console.log(
        `${s.who.padEnd(7)} ${m("rps").toFixed(0).padStart(6)} ${m("cpu").toFixed(0).padStart(7)} ${m("net").toFixed(0).padStart(7)} ${m("scavenges").toFixed(1).padStart(14)} ` +
          `${m("scavengeMs").toFixed(0).padStart(12)} ${m("fulls").toFixed(0).padStart(9)} ${m("fullMs").toFixed(0).padStart(12)} ${m("allocKb").toFixed(0).padStart(13)}`,
      );
      for (const x of xs) log(`  ${s.who} slice: ${x.rps.toFixed(0)} req/s, net ${x.net.toFixed(0)} µs, ${x.scavenges.toFixed(1)} scav/1000, ${x.scavengeMs.toFixed(0)} µs scav/req, ${x.fulls} full, ${x.allocKb.toFixed(0)} KB/req`);
    }
    const rss = () => servers.map((s) => `${s.who} ${(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.child.pid}/status`, "utf8"))?.[1]) / 1024).toFixed(0)}`).join(", ");
    const rightAfter = rss();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    log(`RSS MB right after: ${rightAfter}; 10 s later: ${rss()}`);
    // in-web shares the web's process, and so its profile: sampled once, as the web.
    if (process.env.GC_SAMPLE) for (const s of servers) if (s.who !== "in-web") await sample(s.who, s.url, s.child, paths, sampleFile(s.who));
  } finally {
    for (const s of new Set(servers.map((s) => s.child))) s.kill("SIGTERM");
    await provider.stop();
  }
  process.exit(0);
}

type SampleNode = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: SampleNode[] };

/** A slice under the sampling heap profiler: the functions that allocate the most, in bytes a request. */
async function sample(who: string, url: string, child: ChildProcess, paths: string[], file: string): Promise<void> {
  rmSync(file, { force: true });
  child.kill("SIGUSR2");
  const result = await loadEndpoint(url, paths, SECONDS);
  child.kill("SIGUSR2");
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const { head } = JSON.parse(readFileSync(file, "utf8")) as { head: SampleNode };
  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (node: SampleNode) => {
    const where = `${node.callFrame.functionName || "(anonymous)"} ${path.basename(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(walk);
  };
  walk(head);
  const kb = (bytes: number) => (bytes / 1024 / result.requests).toFixed(1).padStart(7);
  console.log(`\n${who}: ${result.requests} requests sampled, ${kb(total)} KB a request in all; by function (self):`);
  for (const [where, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${kb(bytes)} KB  ${where}`);
}

await main();
