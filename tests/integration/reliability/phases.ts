import { Keypair } from "@solana/web3.js";
import { runLoad, startLoad, type LoadReport } from "../../helpers/load";
import { scannedCount, waitFor } from "../../helpers/worker";
import { indexDiscrepancies, type Stack } from "./stack";

// The reliability phases, each returning what it met; the suite asserts on
// them, `npm run bench:soak` prints them. A phase moves on when what it waits
// for has happened (the load saw the outage, answers are whole again, a new
// worker indexes), never after a fixed time; how long each took is measured
// for the bench. How long a load runs (a time, or a number of answers) is the
// caller's.

/** A load's length: seconds for the bench, a number of answers for the suite. */
export type LoadLength = { seconds: number } | { requests: number };

/** Longest a phase waits for something to happen before it reports a hang. */
const HUNG_MS = 120_000;

export interface OutagePhase {
  load: LoadReport;
  /** ms from PostgreSQL's return to the answers being whole again. */
  recoveryMs: number;
  /** Whether the worker process lived through it. */
  workerAlive: boolean;
}

export async function steadyLoad(stack: Stack, paths: string[], length: LoadLength, connections: number): Promise<LoadReport> {
  return runLoad(stack.web.baseUrl, paths, { ...length, connections });
}

/**
 * Load while PostgreSQL goes down and comes back: it goes down once the load
 * is under way, stays down until the load has met the outage (a 503 with
 * retry-after; and for at least `minOutageMs`), and the load ends once the
 * answers have been whole again for `2 × paths` in a row.
 */
export async function postgresRestart(stack: Stack, paths: string[], options: { connections: number; minOutageMs?: number }): Promise<OutagePhase> {
  const load = startLoad(stack.web.baseUrl, paths, { connections: options.connections, timeoutMs: 20_000 });
  const describe = () => `load so far ${JSON.stringify(load.progress)}`;
  try {
    await waitFor(async () => load.progress.requests >= 2 * options.connections, HUNG_MS, describe);
    const downAt = performance.now();
    await stack.pg.down();
    await waitFor(async () => load.progress.unavailable > 0, HUNG_MS, () => `the load met no 503 while PostgreSQL was down; ${describe()}`);
    const rest = (options.minOutageMs ?? 0) - (performance.now() - downAt);
    if (rest > 0) await new Promise((r) => setTimeout(r, rest)); // the bench's outage length, not a wait for anything
    await stack.pg.up();
    const backAt = performance.now();
    load.progress.wholeInARow = 0; // counted from here: paths that need no database may have answered whole during the outage
    await waitFor(async () => load.progress.wholeInARow >= 2 * paths.length, HUNG_MS, () => `answers were not whole again; ${describe()}`);
    const recoveryMs = Math.round(performance.now() - backAt);
    load.stop();
    return { load: await load.report, recoveryMs, workerAlive: stack.worker.child.exitCode === null };
  } finally {
    load.stop();
    await stack.pg.up();
  }
}

/** Load on the token endpoints while the link to Redis is cut. */
export async function redisCut(stack: Stack, length: LoadLength, connections: number): Promise<LoadReport | null> {
  if (!stack.redis) return null;
  await stack.redis.close();
  try {
    return await runLoad(stack.web.baseUrl, tokenPaths(), { ...length, connections });
  } finally {
    await stack.redis.open();
  }
}

export interface ProviderDownPhase {
  /** Answers for mints the web had cached before the outage. */
  cached: LoadReport;
  /** One request for a mint nobody asked for before: status, code and retry-after. */
  uncached: { status: number; code: string | undefined; retryAfter: string | null; body: string };
}

export async function providerDown(stack: Stack, length: LoadLength, connections: number): Promise<ProviderDownPhase> {
  stack.standin.setMode({ kind: "fail", status: 503 });
  try {
    const cached = await runLoad(stack.web.baseUrl, tokenPaths(), { ...length, connections });
    const unknown = Keypair.generate().publicKey.toBase58();
    const answer = await stack.web.get(`/v1/tokens?mints=${unknown}`);
    const body = await answer.text();
    let code: string | undefined;
    try {
      code = JSON.parse(body).code;
    } catch {
      code = undefined;
    }
    return { cached, uncached: { status: answer.status, code, retryAfter: answer.headers.get("retry-after"), body: body.slice(0, 300) } };
  } finally {
    stack.standin.setMode("ok");
  }
}

/**
 * SIGKILLs the worker `times` times during the live tail, each time once the
 * worker then running has indexed something new (it is in the middle of the
 * tail); then pauses the cluster until the index has the whole ledger, which
 * it must equal.
 */
export async function workerKills(stack: Stack, times: number, settleTimeoutMs: number): Promise<{ discrepancies: string[]; settleMs: number }> {
  stack.cluster.resume();
  const indexing = async () => {
    const before = await scannedCount(stack.databaseUrl).catch(() => 0);
    await waitFor(async () => (await scannedCount(stack.databaseUrl).catch(() => 0)) > before, HUNG_MS, () => `the worker indexed nothing new:\n${stack.worker.output().slice(-2000)}`);
  };
  for (let i = 0; i < times; i++) {
    await indexing();
    await stack.killAndRestartWorker();
  }
  await indexing();
  const started = performance.now();
  await stack.settle(settleTimeoutMs);
  const took = Math.round(performance.now() - started);
  const discrepancies = await indexDiscrepancies(stack);
  stack.cluster.resume();
  return { discrepancies, settleMs: took };
}

function tokenPaths(): string[] {
  return ["/v1/trending", "/v1/stats"].concat(
    // The same mints the heavy paths asked for, so they are cached.
    ["/v1/tokens?mints=JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", "/v1/tokens?mints=DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"],
  );
}
