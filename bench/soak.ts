import { postgresRestart, providerDown, redisCut, steadyLoad, workerKills } from "../tests/integration/reliability/phases";
import { heavyPaths, startStack } from "../tests/integration/reliability/stack";
import { ensureBuild, log } from "./harness";

// npm run bench:soak — the explorer as real processes (next start, the worker,
// a PostgreSQL of its own, the local cluster, the token stand-in, Redis behind
// a switch) under load while each dependency fails in turn. Prints what each
// phase met and exits non-zero when a rule broke:
// - steady load at SOAK_CONNECTIONS (64) for SOAK_SECONDS (60) on the heaviest endpoints: no 5xx;
// - PostgreSQL down for 5 s under load: only 503 with retry-after, recovered by itself (how soon is printed), the worker alive;
// - Redis unreachable: the token endpoints keep answering 200;
// - the provider down: cached tokens 200, an unseen mint 502 upstream_error with retry-after;
// - the worker SIGKILLed three times during the live tail: the index equals the ledger, nothing lost or doubled.

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 64);
const broken: string[] = [];
const rule = (ok: boolean, what: string) => {
  if (!ok) broken.push(what);
  return ok ? "ok" : "BROKEN";
};
const statuses = (byStatus: Record<string, number>) =>
  Object.entries(byStatus)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");

await ensureBuild();
log("starting the stack (PostgreSQL, cluster with 2,000 transactions, token stand-in, Redis switch, worker, next start)");
const stack = await startStack({ name: "soak", history: 2_000, txPerSecond: 10, redis: true });
try {
  await stack.settle(300_000);
  stack.cluster.resume();
  const paths = await heavyPaths(stack);

  const steady = await steadyLoad(stack, paths, { seconds: SECONDS }, CONNECTIONS);
  log(
    `steady: ${SECONDS} s at ${CONNECTIONS} connections: ${steady.requests} requests, ${steady.rps} req/s, p50 ${steady.p50} ms, p99 ${steady.p99} ms, ` +
      `5xx ${steady.unexpected5xx + steady.unavailable}, no answer ${steady.failures} [${rule(steady.unexpected5xx + steady.unavailable + steady.failures === 0, "5xx under steady load")}]`,
  );

  const restart = await postgresRestart(stack, paths, { connections: 16, minOutageMs: 5_000 });
  log(
    `PostgreSQL down 5 s under 16 connections: ${statuses(restart.load.byStatus)}; 503 with retry-after ${restart.load.unavailable}, other 5xx ${restart.load.unexpected5xx}, ` +
      `no answer ${restart.load.failures} [${rule(restart.load.unexpected5xx + restart.load.failures === 0, "a 5xx other than 503+retry-after during the PostgreSQL restart")}]; ` +
      `whole again ${restart.recoveryMs} ms after its return [recovered by itself]; ` +
      `worker alive [${rule(restart.workerAlive, "the worker survives PostgreSQL's restart")}]`,
  );
  if (restart.load.samples.length) log(`  e.g. ${restart.load.samples.join(" | ")}`);
  if (restart.load.lastBad.length) log(`  last answers that were not whole: ${restart.load.lastBad.join(" | ")}`);
  const afterRestart = await workerKills(stack, 0, 120_000);
  log(`  worker caught up ${afterRestart.settleMs} ms after: ${afterRestart.discrepancies.join("; ") || "index equals the ledger"} [${rule(afterRestart.discrepancies.length === 0, "exact index after the PostgreSQL restart")}]`);

  const redis = await redisCut(stack, { seconds: 20 }, 16);
  if (!redis) log("Redis: none on 127.0.0.1:6379, phase skipped");
  else
    log(
      `Redis cut for 20 s under 16 connections: ${statuses(redis.byStatus)}, p50 ${redis.p50} ms [${rule(redis.byStatus["200"] === redis.requests, "token endpoints all 200 without Redis")}]`,
    );

  const provider = await providerDown(stack, { seconds: 20 }, 16);
  log(
    `provider down 20 s: cached ${statuses(provider.cached.byStatus)} [${rule(provider.cached.byStatus["200"] === provider.cached.requests, "cached tokens served through the outage")}]; ` +
      `unseen mint ${provider.uncached.status} ${provider.uncached.code} retry-after ${provider.uncached.retryAfter} ` +
      `[${rule(provider.uncached.status === 502 && provider.uncached.code === "upstream_error" && Number(provider.uncached.retryAfter) > 0, "502 upstream_error with retry-after for an unseen mint")}]`,
  );

  const kills = await workerKills(stack, 3, 180_000);
  log(
    `worker SIGKILLed 3 times in the live tail: caught up ${kills.settleMs} ms after the last start; ${kills.discrepancies.join("; ") || "index equals the ledger"} ` +
      `[${rule(kills.discrepancies.length === 0, "exact index after SIGKILLs")}]`,
  );
} finally {
  await stack.stop();
}
log(broken.length ? `BROKEN: ${broken.join("; ")}` : "every rule held");
process.exit(broken.length ? 1 : 0);
