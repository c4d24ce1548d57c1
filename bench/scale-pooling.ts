import { execFile } from "node:child_process";
import { promisify } from "node:util";
import postgres from "postgres";
import type { ScaleStack } from "../scripts/scale/topology";
import { load, percentile, sleep, statusLine } from "./scale-probes";
import { verdict, type Print } from "./scale-stream-drills";

// bench:scale's pooling drill: 400 clients over PgBouncer's 20 server
// connections, then where the pooled path loses against a direct one, at the
// driver (one list query three ways) and at the list endpoints (two more web
// processes reading the primary, one through PgBouncer, one direct).

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_POOL_ROUNDS ?? 3);
const ROUND_S = Number(process.env.BENCH_POOL_ROUND_S ?? 5);
const median = (xs: number[]) => percentile(xs, 50);

async function fourHundredClients(stack: ScaleStack, print: Print): Promise<void> {
  const clients = Array.from({ length: 400 }, () => postgres(stack.pooledUrl, { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 10 }));
  let errors = 0;
  let queries = 0;
  let maxServers = 0;
  const bouncerPort = new URL(stack.pooledUrl).port;
  const end = Date.now() + 5000;
  // PgBouncer's own count of its server connections to the primary's database (SHOW POOLS: sv_active + sv_idle + sv_used + sv_tested + sv_login).
  const watch = (async () => {
    while (Date.now() < end) {
      const { stdout } = await run("psql", ["-h", "127.0.0.1", "-p", bouncerPort, "-U", "postgres", "-d", "pgbouncer", "-tA", "-F", ",", "-c", "show pools"]);
      for (const line of stdout.split("\n")) {
        const f = line.split(",");
        if (f[0] === "explorer") maxServers = Math.max(maxServers, Number(f[6]) + Number(f[9]) + Number(f[10]) + Number(f[11]) + Number(f[12]));
      }
      await sleep(100);
    }
  })();
  await Promise.all(
    clients.map(async (sql) => {
      while (Date.now() < end) {
        try {
          await sql`select count(*) from offers`;
          queries++;
        } catch {
          errors++;
        }
      }
    }),
  );
  await watch;
  await Promise.all(clients.map((c) => c.end({ timeout: 2 })));
  print(`PgBouncer: 400 clients for 5 s, ${queries} queries, ${errors} errors, at most ${maxServers} server connections to the primary (PgBouncer's SHOW POOLS) — ${verdict(errors === 0 && maxServers <= 20)} (target no error over ≤ 20 server connections)`);
}

/**
 * A list page's query (parameters, as every route's) four ways at once:
 * direct with prepared statements, direct without, through PgBouncer
 * without, and through PgBouncer with its values written in (no parameters
 * at all). Unprepared, its plain parameters go in one flight
 * (patches/postgres+3.4.9.patch), so the last two should match.
 */
async function driverRates(stack: ScaleStack, print: Print): Promise<void> {
  const way = async (url: string, prepare: boolean, inline = false) => {
    const sql = postgres(url, { max: 10, prepare, onnotice: () => {} });
    let n = 0;
    const stop = Date.now() + ROUND_S * 1000;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (Date.now() < stop) {
          if (inline) await sql.unsafe(`select coalesce(json_agg(o)::text, '[]') from (select * from offers where state = 'active' and maker <> '' order by created_at desc limit 50) o`);
          else await sql`select coalesce(json_agg(o)::text, '[]') from (select * from offers where state = ${"active"} and maker <> ${""} order by created_at desc limit ${50}) o`;
          n++;
        }
      }),
    );
    await sql.end();
    return n / ROUND_S;
  };
  const rounds: number[][] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await Promise.all([way(stack.primaryUrl, true), way(stack.primaryUrl, false), way(stack.pooledUrl, false), way(stack.pooledUrl, false, true)]));
  const [prepared, unprepared, pooled, oneFlight] = [0, 1, 2, 3].map((i) => median(rounds.map((x) => x[i]!)));
  print(`  one list query (16 concurrent each, ${ROUNDS} × ${ROUND_S} s, the four at once; medians): direct prepared ${prepared!.toFixed(0)}/s, direct unprepared ${unprepared!.toFixed(0)}/s, PgBouncer unprepared, one flight ${pooled!.toFixed(0)}/s (${((pooled! / prepared!) * 100).toFixed(0)}%), PgBouncer without parameters (values written in) ${oneFlight!.toFixed(0)}/s (${((oneFlight! / prepared!) * 100).toFixed(0)}%) (informational: the driver without HTTP around it)`);
}

/** The list endpoints of a web process reading through PgBouncer against one reading the primary directly, side by side. */
async function endpointRates(stack: ScaleStack, print: Print): Promise<void> {
  const [direct, pooled] = await Promise.all([
    stack.startWebWith({ DATABASE_URL: stack.primaryUrl, DATABASE_POOL_MODE: "session", DATABASE_READ_URL: "" }),
    stack.startWebWith({ DATABASE_URL: stack.pooledUrl, DATABASE_POOL_MODE: "transaction", DATABASE_READ_URL: "" }),
  ]);
  try {
    // sort=price is one book's order: it needs a pair (400 without one), here the busiest market's.
    const { markets } = (await (await fetch(`${direct.url}/v1/markets`)).json()) as { markets: { tokenMint: string; paymentMint: string }[] };
    const pair = markets[0] ? `&tokenMint=${markets[0].tokenMint}&paymentMint=${markets[0].paymentMint}` : "";
    const paths = ["/v1/offers?limit=50", "/v1/fills?limit=50", `/v1/offers?limit=50&sort=price${pair}`, "/v1/markets"];
    const rotate = (base: string) => {
      let turn = 0;
      return () => `${base}${paths[turn++ % paths.length]}`;
    };
    // Warm both (route modules, pools).
    await Promise.all([load(rotate(direct.url), 1000, 4), load(rotate(pooled.url), 1000, 4)]);
    const rounds: { direct: number; pooled: number; directP50: number; pooledP50: number; errors: number; statuses: string }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const [d, p] = await Promise.all([load(rotate(direct.url), ROUND_S * 1000, 16), load(rotate(pooled.url), ROUND_S * 1000, 16)]);
      rounds.push({ direct: d.count / ROUND_S, pooled: p.count / ROUND_S, directP50: percentile(d.latencies, 50), pooledP50: percentile(p.latencies, 50), errors: d.failures.length + p.failures.length, statuses: `pooled ${statusLine(p)}, direct ${statusLine(d)}` });
    }
    const ratio = median(rounds.map((x) => x.pooled / x.direct));
    const each = rounds.map((x) => `${x.pooled.toFixed(0)}/${x.direct.toFixed(0)}`).join(", ");
    const errors = rounds.reduce((a, x) => a + x.errors, 0);
    print(`list endpoints (offers, fills, markets; 16 concurrent on each of two more web processes reading the primary, ${ROUNDS} × ${ROUND_S} s side by side): through PgBouncer ${median(rounds.map((x) => x.pooled)).toFixed(0)}/s against direct ${median(rounds.map((x) => x.direct)).toFixed(0)}/s, median of per-round ratios ${(ratio * 100).toFixed(0)}% (rounds pooled/direct ${each}; p50 ${median(rounds.map((x) => x.pooledP50)).toFixed(1)} against ${median(rounds.map((x) => x.directP50)).toFixed(1)} ms; ${errors} non-200${errors ? `: ${rounds.map((x) => x.statuses).join("; ")}` : ""}) — ${verdict(ratio >= 0.85 && errors === 0)} (target ≥ 85%)`);
  } finally {
    await Promise.all([direct.stop(), pooled.stop()]);
  }
}

export async function pooling(stack: ScaleStack, print: Print): Promise<void> {
  await fourHundredClients(stack, print);
  await endpointRates(stack, print);
  await driverRates(stack, print);
}
