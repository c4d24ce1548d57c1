import { Keypair } from "@solana/web3.js";
import { runLoad, type LoadReport } from "../../helpers/load";
import { indexDiscrepancies, type Stack } from "./stack";

// The reliability phases, each returning what it measured; the suite asserts
// on them, `npm run bench:soak` prints them. Durations come from the caller.

export interface OutagePhase {
  load: LoadReport;
  /** ms from the dependency's return until the last non-2xx/4xx answer (≤ 0: none after it). */
  recoveryMs: number | null;
  /** Whether the worker process lived through it. */
  workerAlive: boolean;
  /** ms from the start of the load to its last answer that was not whole, if any; and the load's length. */
  lastBadAtMs: number | null;
  loadSeconds: number;
}

export async function steadyLoad(stack: Stack, paths: string[], seconds: number, connections: number): Promise<LoadReport> {
  return runLoad(stack.web.baseUrl, paths, { seconds, connections });
}

/** Load while PostgreSQL goes down for `outageMs`, `afterSeconds` into the load, and comes back. */
export async function postgresRestart(stack: Stack, paths: string[], options: { seconds: number; connections: number; afterSeconds: number; outageMs: number }): Promise<OutagePhase> {
  const started = performance.now();
  const load = runLoad(stack.web.baseUrl, paths, { seconds: options.seconds, connections: options.connections, timeoutMs: 20_000 });
  await new Promise((r) => setTimeout(r, options.afterSeconds * 1000));
  await stack.pg.restart(options.outageMs);
  const backAtMs = performance.now() - started;
  const report = await load;
  return {
    load: report,
    recoveryMs: report.lastBadAtMs === null ? null : Math.round(report.lastBadAtMs - backAtMs),
    workerAlive: stack.worker.child.exitCode === null,
    lastBadAtMs: report.lastBadAtMs,
    loadSeconds: options.seconds,
  };
}

/** Load on the token endpoints while the link to Redis is cut. */
export async function redisCut(stack: Stack, seconds: number, connections: number): Promise<LoadReport | null> {
  if (!stack.redis) return null;
  await stack.redis.close();
  try {
    return await runLoad(stack.web.baseUrl, tokenPaths(), { seconds, connections });
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

export async function providerDown(stack: Stack, seconds: number, connections: number): Promise<ProviderDownPhase> {
  stack.standin.setMode({ kind: "fail", status: 503 });
  try {
    const cached = await runLoad(stack.web.baseUrl, tokenPaths(), { seconds, connections });
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

/** SIGKILLs the worker `times` times during the live tail; then the index must equal the ledger. */
export async function workerKills(stack: Stack, times: number, gapMs: number, settleMs: number): Promise<{ discrepancies: string[]; settleMs: number }> {
  stack.cluster.resume();
  for (let i = 0; i < times; i++) {
    await new Promise((r) => setTimeout(r, gapMs));
    await stack.killAndRestartWorker();
  }
  await new Promise((r) => setTimeout(r, gapMs));
  const started = performance.now();
  await stack.settle(settleMs);
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
