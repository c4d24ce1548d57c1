import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { connect, disconnect } from "../lib/db/client";
import { migrateDatabase } from "../lib/db/migrate";
import { startEmbeddedPostgres } from "../platform/postgres/embedded";
import { createDatabaseIfMissing } from "../platform/postgres/resolve";
import { floodBesideAStalledReader, flood, floodOffer, FLOOD_EVENTS } from "../tests/integration/api/stalled-reader";
import { startWebServer } from "../tests/helpers/server";
import { openStream } from "../tests/helpers/sse";
import { log, ROOT } from "./harness";

// npm run bench:stream — the web process's memory (RSS) across floods of the
// live feed, each beside a reader that never reads (cut off after 2 s with a
// 64 KiB queue). Memory kept per stalled reader (its ~30 MB of frames) would
// lift the floor of the later floods above the earlier ones. The RSS swings by
// hundreds of MB from flood to flood with the collector's timing on Node 20,
// and Node 24's heap climbs to its working size over the first floods, so the
// figures are printed, with the floors compared, rather than asserted in a test
// (the suite checks that each stalled reader is cut off and released:
// tests/integration/api/stream-delivery.test.ts).
// Then the RSS once the process has been quiet for BENCH_QUIET_SECONDS (40:
// the web gives a load's memory back after 30 quiet seconds,
// platform/idle-memory.ts): what it gives back (issue 19's target: under 300 MB).
// BENCH_WARMUP_FLOODS (4), BENCH_FLOODS (8: compared as two halves),
// BENCH_DATABASE_URL (else an embedded PostgreSQL).

const WARMUP = Number(process.env.BENCH_WARMUP_FLOODS ?? 4);
const FLOODS = Number(process.env.BENCH_FLOODS ?? 8);
const QUIET_SECONDS = Number(process.env.BENCH_QUIET_SECONDS ?? 40);
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

let adminUrl = process.env.BENCH_DATABASE_URL;
let stopDatabase = async () => {};
if (!adminUrl) {
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data/bench-stream-pg"), persistent: false });
  adminUrl = embedded.adminUrl;
  stopDatabase = () => embedded.stop();
}
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe("drop database if exists offer_book_bench_stream with (force)");
await admin.end();
const databaseUrl = await createDatabaseIfMissing(adminUrl, "offer_book_bench_stream");
await migrateDatabase(databaseUrl);
const db = connect(databaseUrl, { max: 2, applicationName: "bench" }); // the client the worker writes with (its JSON handling)
const sql = db.$client;
const server = await startWebServer({ DATABASE_URL: databaseUrl, RATE_LIMIT_RPM: "0", STREAM_QUEUE_BYTES: "65536", STREAM_STALL_MS: "2000" });
try {
  const pda = await floodOffer(sql);
  log(`${WARMUP} warm-up floods of ${FLOOD_EVENTS} events (one reader, then beside a stalled reader), then ${FLOODS} measured`);
  const warm = await openStream(server.baseUrl, "/v1/stream");
  await flood(sql, pda);
  await warm.waitForCount(FLOOD_EVENTS, 120_000);
  warm.close();
  let cutOffs = 0;
  for (let round = 0; round < WARMUP; round++) cutOffs = (await floodBesideAStalledReader(server, sql, pda, cutOffs)).cutOffs;
  const rss: number[] = [];
  for (let round = 0; round < FLOODS; round++) {
    const outcome = await floodBesideAStalledReader(server, sql, pda, cutOffs);
    cutOffs = outcome.cutOffs;
    rss.push(rssMb(server.pid));
    log(`flood ${round + 1}: RSS ${rss.at(-1)!.toFixed(0)} MB, streams open after the cut-off ${outcome.streamsOpen}, cut-offs ${cutOffs}`);
  }
  const half = Math.floor(rss.length / 2);
  const [earlier, later] = [rss.slice(0, half), rss.slice(half)];
  const floor = (values: number[]) => Math.min(...values).toFixed(0);
  const peak = (values: number[]) => Math.max(...values).toFixed(0);
  log(`earlier floods: floor ${floor(earlier)} MB, peak ${peak(earlier)} MB; later floods: floor ${floor(later)} MB, peak ${peak(later)} MB`);
  const climbing = Math.min(...later) > Math.max(...earlier) + 25 && Math.min(...later) > Math.min(...earlier) + 50;
  log(climbing ? "the later floor is above the earlier peak and floor: memory kept per stalled reader?" : "no climb: the later floor stays within the earlier floods' range");
  await new Promise((resolve) => setTimeout(resolve, QUIET_SECONDS * 1000));
  const quiet = rssMb(server.pid);
  log(`${QUIET_SECONDS} s after the last flood: RSS ${quiet.toFixed(0)} MB (target < 300 MB: ${quiet < 300 ? "met" : "MISSED"})`);
} finally {
  await server.stop();
  await disconnect(db);
  await stopDatabase();
}
