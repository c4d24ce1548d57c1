import postgres from "postgres";
import { leaderKillDrill } from "../scripts/scale/leader-kill";
import type { ScaleStack } from "../scripts/scale/topology";
import { proxyCache } from "./scale-cache";
import { pooling } from "./scale-pooling";
import { load, metric, newestFeedId, sleep, statusLine } from "./scale-probes";
import { correctness, ms, verdict, webKilled, type Print } from "./scale-stream-drills";

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, stepMs = 50): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - start;
    await sleep(stepMs);
  }
  return null;
}

async function replicaLagMs(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
  try {
    const [row] = await sql<{ lag: number }[]>`select (case when pg_last_wal_receive_lsn() is not distinct from pg_last_wal_replay_lsn() then 0
      else coalesce(extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000, 0) end)::float8 as lag`;
    return row!.lag;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Lag guard: apply delay 10 s, then 0; the web's replica gauge against the replica's own lag. */
async function lagGuard(stack: ScaleStack, print: Print): Promise<void> {
  const serving = async (value: number) => (await Promise.all(stack.webUrls.map((u) => metric(u, "offer_book_replica_serving")))).every((v) => v === value);
  await waitUntil(() => serving(1), 10_000);
  await stack.setApplyDelay(10_000);
  const overAfter = await waitUntil(async () => (await replicaLagMs(stack.replicaUrl)) > 2000, 20_000, 20);
  const off = await waitUntil(() => serving(0), 10_000, 20);
  await sleep(3000);
  await stack.setApplyDelay(0);
  const caught = await waitUntil(async () => (await replicaLagMs(stack.replicaUrl)) <= 2000, 20_000, 20);
  const on = await waitUntil(() => serving(1), 10_000, 20);
  print(`lag guard (REPLICA_MAX_LAG 2000 ms, apply delay raised to 10 s): lag past the bound after ${overAfter === null ? "never" : ms(overAfter)}, reads on the primary ${off === null ? "never" : `${ms(off)} later`}; back on the replica ${on === null ? "never" : `${ms(on)} after it caught up (in ${caught === null ? "?" : ms(caught)})`} — ${verdict(off !== null && off <= 2000 && on !== null && on <= 2000)} (target ≤ 2 s each way)`);
}

/** The replica killed with pg_ctl stop -m immediate while reads run against both web processes, then restarted. */
async function replicaKilled(stack: ScaleStack, print: Print): Promise<void> {
  let turn = 0;
  const url = () => `${stack.webUrls[turn++ % 2]}/v1/offers?limit=20`;
  const running = load(url, 8000, 8);
  await sleep(1000);
  const killedAt = performance.now();
  await stack.stopReplica("immediate");
  const stopMs = performance.now() - killedAt;
  const result = await running;
  const failures = result.failures.filter((f) => f.at >= 1000);
  const span = failures.length ? failures.at(-1)!.at - failures[0]!.at : 0;
  print(`replica killed (pg_ctl stop -m immediate, ${ms(stopMs)} to stop): ${result.count} reads ${statusLine(result)}, non-200 span ${ms(span)} — ${verdict(span <= 2000 && failures.every((f) => f.status === 503))} (target ≤ 2 s of 503 with retry-after, then 200s)`);
  await stack.startReplica();
  const back = await waitUntil(async () => (await Promise.all(stack.webUrls.map((u) => metric(u, "offer_book_replica_serving")))).every((v) => v === 1), 20_000);
  print(`  replica restarted: both web processes reading it again after ${back === null ? "never (20 s)" : ms(back)}`);
}

/** The leader worker SIGKILLed under load: the standby's takeover, then its index against a clean run's (scripts/scale/leader-kill.ts). */
async function leaderKilled(stack: ScaleStack, print: Print): Promise<void> {
  const drill = await leaderKillDrill(stack);
  try {
    const took = drill.takeoverMs;
    const { comparison } = drill;
    print(`leader worker SIGKILLed with ${drill.burst} transactions appended (${drill.appliedBeforeKill} applied before the kill): the standby led and wrote after ${took === null ? "never (30 s)" : ms(took)} — ${verdict(took !== null && took <= 10_000)} (target ≤ 10 s)`);
    print(`  its index against a clean run's at the same ${drill.transactions} transactions: ${comparison.tables} tables (${comparison.rows} rows) and the feed, ${comparison.fills} fill events, ${comparison.differences.length} difference(s) — ${verdict(comparison.equal)} (target: equal, nothing lost or counted twice)`);
    for (const difference of comparison.differences.slice(0, 5)) print(`    ${difference}`);
  } finally {
    await drill.finish();
  }
}

/** PgBouncer restarted, Redis stopped: reads through the web processes meanwhile. */
async function poolerAndRedis(stack: ScaleStack, print: Print): Promise<void> {
  let turn = 0;
  const url = () => `${stack.webUrls[turn++ % 2]}/v1/offers?limit=20`;
  const running = load(url, 6000, 8);
  await sleep(1000);
  await stack.restartPgbouncer();
  const result = await running;
  const span = result.failures.length ? result.failures.at(-1)!.at - result.failures[0]!.at : 0;
  print(`PgBouncer restarted under reads: ${result.count} reads ${statusLine(result)}, non-200 span ${ms(span)} (informational)`);
  const redisRun = load(url, 5000, 8);
  await sleep(1000);
  await stack.stopRedis();
  const redis = await redisRun;
  print(`Redis stopped under reads: ${redis.count} reads ${statusLine(redis)} — ${verdict(redis.failures.length === 0)} (budgets fall back to memory; target: no failed read)`);
  await stack.startRedis();
}

const PROBES = {
  cache: proxyCache,
  lag: lagGuard,
  correctness,
  "replica-kill": replicaKilled,
  pooling,
  "web-kill": webKilled,
  "leader-kill": leaderKilled,
  "pgbouncer-redis": poolerAndRedis,
} as const;
export type ProbeName = keyof typeof PROBES;
export const PROBE_NAMES = Object.keys(PROBES) as ProbeName[];

/** Runs `names` (every probe by default), in the order listed above. */
export async function scaleDrills(stack: ScaleStack, print: Print, names: readonly ProbeName[] = PROBE_NAMES): Promise<void> {
  print(`bench:scale ${new Date().toISOString()}, probes ${names.join(", ")}, load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  // The worker catches up with the cluster's history first.
  await waitUntil(async () => (await newestFeedId(stack.primaryUrl)) > 0, 120_000, 500);
  await sleep(3000);
  for (const name of PROBE_NAMES.filter((n) => names.includes(n))) {
    try {
      await PROBES[name](stack, print);
    } catch (error) {
      print(`${name}: failed to run: ${(error as Error).message} — missed`);
    }
  }
}
