// `npm run web`: the Next.js server behind a small node:http launcher
// (web/launcher.ts), bundled and run in this process (see run-bundled.mjs).
import "./hold-stop-signals.mjs";

// V8 flags from Node 24 (V8 13.6), which V8 reads only as the process starts
// (docs/benchmarks-api.md, "Memory" and session 18):
// - the young generation's semi-spaces at least 32 MB and at most 64 (V8's
//   own maximum on a machine with memory to spare). Without the floor, the
//   idle release below shrinks them to their smallest, so that the next load
//   scavenges three times as often as it would (hourly chart candles: 284
//   scavenges a thousand requests against 106 at 32 MB). Held at 32 MB, the
//   web scavenged twice as often as the bare server under a load of the
//   JavaScript-heavy answers, each scavenge as dear, for 250-480 µs more CPU
//   a request; growing to 64 MB it scavenges as often as the bare server
//   (bench:api-gc, session 23: CoinGecko tickers 2,069 → 1,685 µs a request,
//   bare 1,593; the hourly chart 3,214 → 3,041, bare 2,858-2,923), for about
//   60 MB more RSS under load, which the release gives back once quiet
//   (bench:api: 250 MB 40 s after, against the 300 MB bound);
// - the collector exposed, for platform/idle-memory.ts: V8's memory reducer no
//   longer runs in a quiet server, so the web gives a load's freed pages back
//   itself once it is quiet.
// Where one is not given yet this process is replaced (same pid, stdio,
// environment and parent) by the same Node with it, before anything is
// loaded. An operator's own setting (on the command line or in NODE_OPTIONS)
// stands: either semi-space size given, neither is added. Node 20 needs none:
// its reducer runs, and its young generation is 16 MB at most.
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const has = (name) => given.some((arg) => arg.startsWith(name));
const semiSpace = has("--max-semi-space-size") || has("--min-semi-space-size") ? [] : ["--max-semi-space-size=64", "--min-semi-space-size=32"];
const missing = [...semiSpace, ...(has("--expose-gc") ? [] : ["--expose-gc"])];
if (missing.length > 0 && Number(process.versions.node.split(".")[0]) >= 24) {
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

const { runBundled } = await import("./run-bundled.mjs");

// As `next start` does: the production server, whatever the shell says.
process.env.NODE_ENV = "production";

// No source maps: Node would keep the map of every module Next loads (run-bundled.mjs).
await runBundled("web/launcher.ts", "web", { sourceMaps: false });
