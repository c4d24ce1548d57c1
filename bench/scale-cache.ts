import { openSync, readSync, readFileSync, statSync, closeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ScaleStack } from "../scripts/scale/topology";
import { cpuSeconds, load } from "./harness";
import { metric, percentile } from "./scale-probes";
import { verdict, type Print } from "./scale-stream-drills";
import { wrk, wrkInstalled } from "./wrk";

// bench:scale's cache drill: 32 connections on one hot URL through nginx.
// The client is wrk (bench/wrk.ts) when installed, else autocannon
// (bench/harness.ts), which on two shared cores spends a core itself and adds
// its own queueing to the latency it reports. Beside the client's latencies
// the drill prints nginx's own time for the same requests ($request_time in
// its access log, 1 ms steps) and the CPU the bench's process spent, so a
// p99 made by a starved client or a busy machine is told apart from one made
// by the proxy.

const CACHE_S = Number(process.env.BENCH_CACHE_S ?? 30);

/** The access log's lines written since `from` (a byte offset). */
function logSince(file: string, from: number): string[] {
  const size = statSync(file).size;
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(file, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  return buffer.toString("utf8").split("\n");
}

/** CPU seconds (user + system) of each child of `parent` (nginx's workers), from /proc; empty where there is no /proc. */
function childrenCpu(parent: number | undefined): Map<number, number> {
  const cpu = new Map<number, number>();
  if (parent === undefined) return cpu;
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8").split(" ").filter(Boolean);
  } catch {
    return cpu;
  }
  for (const child of children) {
    const seconds = cpuSeconds(Number(child));
    if (!Number.isNaN(seconds)) cpu.set(Number(child), seconds); // NaN: gone meanwhile
  }
  return cpu;
}

/**
 * Asks for `target` until nginx answers it from its cache. The target's
 * first fill is its own case: the 31 other connections that asked for it
 * meanwhile wait on nginx's cache lock, which nginx looks at again every
 * 500 ms (ngx_http_file_cache_lock_wait), so they take some 500 ms once.
 */
async function warm(url: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const answer = await fetch(url, { headers: { "accept-encoding": "gzip" } });
    await answer.arrayBuffer();
    if (answer.headers.get("x-cache-status") === "HIT") return;
  }
  throw new Error(`${url}: never answered from nginx's cache`);
}

export async function proxyCache(stack: ScaleStack, print: Print): Promise<void> {
  const hot = "/v1/offers?limit=20&status=open&sort=created";
  const accessLog = path.join(stack.logDir, "nginx-access.log");
  // A hot URL is one in the cache: the measure starts once it is (the first fill apart, above).
  await warm(`${stack.proxyUrl}${hot}`);
  const before = await Promise.all(stack.webUrls.map((u) => metric(u, "offer_book_http_request_duration_seconds_count", { route: "/v1/offers" })));
  const logFrom = statSync(accessLog).size;
  const cpu = process.cpuUsage();
  const nginxBefore = childrenCpu(stack.proxyPid);
  const wall = performance.now();
  const client = (await wrkInstalled()) ? "wrk" : "autocannon (apt install wrk for a lighter client)";
  const result = client === "wrk" ? await wrk(`${stack.proxyUrl}${hot}`, CACHE_S, 32, { "accept-encoding": "gzip" }) : await load(stack.proxyUrl, [hot], CACHE_S, 32, { "accept-encoding": "gzip" });
  const used = process.cpuUsage(cpu);
  const elapsedMs = performance.now() - wall;
  const clientCpu = (used.user + used.system) / 1000 / elapsedMs;
  // nginx's processes that were there before and after (its workers; the cache manager idles).
  const nginxCpu = [...childrenCpu(stack.proxyPid)]
    .filter(([pid]) => nginxBefore.has(pid))
    .map(([pid, seconds]) => ((seconds - nginxBefore.get(pid)!) * 1000) / elapsedMs)
    .sort((a, b) => b - a);
  const after = await Promise.all(stack.webUrls.map((u) => metric(u, "offer_book_http_request_duration_seconds_count", { route: "/v1/offers" })));
  const origin = after.reduce((a, b) => a + b, 0) - before.reduce((a, b) => a + b, 0);
  const nginxMs = logSince(accessLog, logFrom)
    .filter((line) => line.includes(`"GET ${hot} `))
    .map((line) => Number(line.slice(line.lastIndexOf(" ") + 1)) * 1000);
  const windows = Math.ceil(CACHE_S / 2);
  const ratio = 1 - origin / result.requests;
  print(`proxy cache (32 connections, one URL, s-maxage 2 s, ${CACHE_S} s, ${client}): ${result.requests} answers (${result.rps.toFixed(0)}/s, ${result.errors} errors), ${origin} reached the origin (${windows} windows), ${(ratio * 100).toFixed(2)}% from cache, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms — ${verdict(origin <= windows + 1 && ratio >= 0.95 && result.p99 < 10)} (target ≤ one per window + 1, ≥ 95%, p99 < 10 ms)`);
  print(`  nginx's own time for the same ${nginxMs.length} requests: p50 ${percentile(nginxMs, 50).toFixed(0)} ms, p99 ${percentile(nginxMs, 99).toFixed(0)} ms, max ${percentile(nginxMs, 100).toFixed(0)} ms; the bench's process used ${(clientCpu * 100).toFixed(0)}% of a core, nginx's processes ${nginxCpu.map((c) => `${(c * 100).toFixed(0)}%`).join(", ") || "?"}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} on ${os.cpus().length} cores`);
  if (client === "wrk") {
    const cold = "/v1/offers?limit=19&status=open&sort=created";
    const first = await wrk(`${stack.proxyUrl}${cold}`, 5, 32, { "accept-encoding": "gzip" });
    print(`  first fill (informational): 32 connections on a URL not yet cached, 5 s: ${first.requests} answers, p50 ${first.p50.toFixed(2)} ms, p99 ${first.p99.toFixed(2)} ms (the connections that wait on nginx's cache lock while one fills it; nginx looks at the lock every 500 ms)`);
  }
  const a = await fetch(`${stack.proxyUrl}${hot}`, { headers: { "x-forwarded-for": "203.0.113.9", "accept-encoding": "gzip" } });
  await a.arrayBuffer();
  print(`  per-client headers behind the proxy: ratelimit-remaining ${a.headers.get("ratelimit-remaining") ?? "absent"}, x-cache-status ${a.headers.get("x-cache-status")}, content-encoding ${a.headers.get("content-encoding") ?? "none"} (asked for gzip)`);
}
