import postgres from "postgres";
import { migrateDatabase } from "../../lib/db/migrate";
import { startChild, stopChild, waitFor } from "./engines";
import { compareIndexes, type IndexComparison } from "./index-equality";
import type { ScaleStack } from "./topology";
import { WORKER_ARGS } from "../worker-command";

// The leader-kill drill of the scale topology, shared by its test
// (tests/integration/scale/topology.test.ts) and bench:scale's leader-kill
// probe: the leader worker SIGKILLed while it has a burst of transactions in
// hand, the standby's takeover timed, then the chain paused, the survivor
// left to reach the tip, and a clean run (a fresh database, migrated, one
// worker, the same cluster) taken to the same point and compared table by
// table (scripts/scale/index-equality.ts).

async function one<T extends postgres.Row>(url: string, query: string): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, fetch_types: false, connect_timeout: 2 });
  try {
    const [row] = await sql.unsafe<T[]>(query);
    return row!;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const scanned = async (url: string) => (await one<{ n: number }>(url, "select count(*)::int as n from scanned_transactions")).n;
/** The feed's newest id on the database at `url` (0 while empty). */
export const newestFeedId = async (url: string) => Number((await one<{ id: string }>(url, "select coalesce(max(id), 0)::text as id from feed_events")).id);

async function role(stack: ScaleStack, i: number): Promise<string> {
  const response = await fetch(`${stack.workerHealthUrls[i]}/health`, { signal: AbortSignal.timeout(2000) });
  return ((await response.json()) as { role: string }).role;
}

/** Which worker leads (waits for one to). */
export async function leadingWorker(stack: ScaleStack, timeoutMs = 60_000): Promise<number> {
  let leader = -1;
  await waitFor("a leading worker", async () => {
    for (let i = 0; i < stack.workers.length; i++) if ((await role(stack, i).catch(() => "down")) === "leader") leader = i;
    return leader >= 0;
  }, timeoutMs);
  return leader;
}

/**
 * Pauses the chain's traffic and waits until the primary's index and the
 * replica's have every transaction of it: a fixed point to compare at.
 * Resolves to the function that resumes the traffic.
 */
export async function freezeChain(stack: ScaleStack, timeoutMs = 90_000): Promise<() => void> {
  stack.cluster.pause();
  const tip = () => stack.cluster.ledger.transactions.length;
  await waitFor("the topology's worker at the chain's tip", async () => (await scanned(stack.primaryUrl)) === tip(), timeoutMs);
  await waitFor("the replica at the chain's tip", async () => (await scanned(stack.replicaUrl)) === tip(), timeoutMs);
  return () => stack.cluster.resume();
}

export interface LeaderKill {
  /** From the SIGKILL to the standby leading and having written a feed event; null: not within 30 s. */
  takeoverMs: number | null;
  /** Transactions appended just before the kill, and how many of them the leader had applied when it died. */
  burst: number;
  appliedBeforeKill: number;
  /** The topology's index against the clean run's, at the same tip. */
  comparison: IndexComparison;
  transactions: number;
  cleanUrl: string;
  /** Drops the clean run's database, resumes the chain and starts the killed worker again (the new standby). */
  finish(): Promise<void>;
}

/** Runs the drill; call `finish()` on its result (after any further look at the clean run's database). */
export async function leaderKillDrill(stack: ScaleStack, options: { burst?: number; log?: (line: string) => void } = {}): Promise<LeaderKill> {
  const log = options.log ?? (() => {});
  const burstSize = options.burst ?? 1200;
  const killed = await leadingWorker(stack);
  const survivor = 1 - killed;
  // Under load: a burst of more than two batches (SCAN_BATCH_SIZE 500) in blocks of 50, on top of the
  // chain's own traffic; the leader killed once it has committed some of it, with the next batch in hand.
  const burstFrom = stack.cluster.ledger.transactions.length;
  for (let left = burstSize; left > 0; left -= 50) stack.cluster.append(undefined, Math.min(50, left));
  await waitFor("the leader applying the burst", async () => (await scanned(stack.primaryUrl)) > burstFrom, 60_000).catch(() => {});
  stack.workers[killed]!.kill("SIGKILL");
  const killedAt = performance.now();
  const appliedBeforeKill = Math.max(0, (await scanned(stack.primaryUrl)) - burstFrom);
  const feedAtKill = await newestFeedId(stack.primaryUrl);
  let takeoverMs: number | null = null;
  await waitFor("the standby leading and writing", async () => {
    if ((await role(stack, survivor)) !== "leader" || (await newestFeedId(stack.primaryUrl)) <= feedAtKill) return false;
    takeoverMs = performance.now() - killedAt;
    return true;
  }, 30_000).catch(() => {});

  const resume = await freezeChain(stack).catch((error: Error) => {
    stack.cluster.resume();
    stack.startWorker(killed);
    throw error;
  });
  const transactions = stack.cluster.ledger.transactions.length;
  const cleanName = `explorer_clean_${Date.now()}`;
  const adminUrl = stack.primaryUrl.replace(/\/explorer$/, "/postgres");
  const cleanUrl = stack.primaryUrl.replace(/\/explorer$/, `/${cleanName}`);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const finish = async () => {
    await admin.unsafe(`drop database if exists "${cleanName}" with (force)`);
    await admin.end({ timeout: 2 });
    resume();
    stack.startWorker(killed);
  };
  try {
    await admin.unsafe(`create database "${cleanName}"`);
    await migrateDatabase(cleanUrl);
    const env: NodeJS.ProcessEnv = { ...process.env, ...stack.cluster.env, DATABASE_URL: cleanUrl, LOG_FORMAT: "json", LOG_LEVEL: "warn", TOKEN_API_URL: "http://127.0.0.1:9" };
    delete env.WORKER_HEALTH_PORT;
    const clean = startChild(process.execPath, WORKER_ARGS, env, (line) => log(`clean worker: ${line}`));
    try {
      await waitFor("the clean run at the chain's tip", async () => (await scanned(cleanUrl)) === transactions, 180_000, clean);
    } finally {
      await stopChild(clean);
    }
    const comparison = await compareIndexes(stack.primaryUrl, cleanUrl);
    return { takeoverMs, burst: burstSize, appliedBeforeKill, comparison, transactions, cleanUrl, finish };
  } catch (error) {
    await finish();
    throw error;
  }
}
