/**
 * How every launcher starts the worker: `node ...WORKER_ARGS` (npm start, the
 * scale stack, the tests' helper, the benches; `npm run worker` in
 * package.json carries the same flag). scripts/worker.mjs then runs it in
 * that process.
 *
 * --single-threaded-gc: the worker is a throughput process, and on a small
 * machine it shares the cores with PostgreSQL; V8's parallel scavenges and
 * concurrent marking and sweeping spend more CPU in all (helper threads and
 * their synchronisation) than they save in pauses, which the worker does not
 * need short. bench:scan (2026-11-26, docs/benchmarks.md): with
 * --heap-growing-percent=10 worker CPU a transaction 0.078 -> 0.067 ms at
 * 1,000,000; with 50 (scripts/worker.mjs) 0.049 -> 0.044, peak RSS 174 ->
 * 189 MB. A command-line flag because V8 cannot take it at run time:
 * v8.setFlagsFromString of it aborts the process at the next full collection.
 */
export const WORKER_NODE_FLAGS = ["--single-threaded-gc"];

export const WORKER_ARGS = [...WORKER_NODE_FLAGS, "scripts/worker.mjs"];
