import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROBE_NAMES, scaleDrills, type ProbeName } from "./scale-drills";
import { startScaleStack } from "../scripts/scale/topology";
import { exitWithOneLine } from "../platform/startup-error";

// npm run bench:scale: the scale topology (npm run stack:scale) measured
// against issue 20's targets, each figure printed beside its target as met or
// missed; each line says what it ran.
// BENCH_PROBES picks probes, comma-separated (all by default): cache, lag,
// correctness (with delivery times), replica-kill, pooling, web-kill,
// leader-kill, pgbouncer-redis. BENCH_STREAMS (streams per web process,
// 1000), BENCH_READER_THREADS (4), BENCH_CORRECTNESS_S (30), BENCH_CACHE_S
// (30), BENCH_POOL_ROUNDS (3) × BENCH_POOL_ROUND_S (5).

const asked = (process.env.BENCH_PROBES ?? "").split(",").map((p) => p.trim()).filter(Boolean);
const unknown = asked.filter((p) => !(PROBE_NAMES as string[]).includes(p));
if (unknown.length > 0) {
  console.error(`bench:scale: unknown probe ${unknown.join(", ")}: BENCH_PROBES takes ${PROBE_NAMES.join(", ")}`);
  process.exit(2);
}
const probes = asked.length > 0 ? (asked as ProbeName[]) : PROBE_NAMES;
const dir = mkdtempSync(path.join(os.tmpdir(), "offer-book-scale-"));
const lines: string[] = [];
const stack = await startScaleStack({
  dir,
  txPerSecond: 4,
  history: 200,
  webEnv: { REPLICA_MAX_LAG: "2000", RATE_LIMIT_RPM: "0", STREAM_MAX_PER_CLIENT: "5000" },
  log: (line) => {
    if (process.env.BENCH_VERBOSE === "1" || /(replica|leader|standby)/.test(line)) console.log(`  · ${line.slice(0, 200)}`);
  },
}).catch((error: unknown) => exitWithOneLine("bench:scale", error));
const stopAll = async () => {
  await stack.stop();
};
process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));
try {
  await scaleDrills(
    stack,
    (line) => {
      lines.push(line);
      console.log(line);
    },
    probes,
  );
} catch (error) {
  console.error(`bench:scale: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
console.log("\nbench:scale summary\n" + lines.filter((l) => /met|missed/.test(l)).join("\n"));
