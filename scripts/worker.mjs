// `npm run worker`: the scanner process, bundled and run in this process (see
// run-bundled.mjs): the worker should stay small, and SIGTERM reaches it
// directly, so it still ends with the batch in hand and exit 0.
import "./hold-stop-signals.mjs";
import v8 from "node:v8";
import { runBundled } from "./run-bundled.mjs";

// A backfill makes garbage fast (every transaction's JSON), and V8's default
// lets the old space swell with it before collecting: a peak RSS of 250-270 MB
// at 4,000 transactions/s. Growing the old space by a fixed 50% at a time
// bounds it: a peak of 174 MB at 1,000,000 transactions (189 with
// --single-threaded-gc, scripts/worker-command.ts), where 10% held 177 MB
// for some 0.03 ms more CPU a transaction (bench:scan, 2026-11-26). Set here
// rather than on the command line, so every launcher gets it; a setting on
// the command line stands (bench:scan's BENCH_WORKER_VARIANTS).
if (!process.execArgv.some((flag) => /^--heap[-_]growing[-_]percent/.test(flag))) v8.setFlagsFromString("--heap-growing-percent=50");

await runBundled("worker/main.ts", "worker");
