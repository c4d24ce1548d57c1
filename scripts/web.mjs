// `npm run web`: the Next.js server behind a small node:http launcher
// (web/launcher.ts), bundled and run in this process (see run-bundled.mjs).
import "./hold-stop-signals.mjs";

// V8 flags from Node 24 (V8 13.6), which V8 reads only as the process starts
// (docs/benchmarks-api.md, "Memory" and session 18):
// - the young generation's semi-spaces at least 16 MB and at most 32. Without
//   the floor, the idle release below shrinks them to their smallest, so that
//   the next load scavenges three times as often as it would (session 18).
//   Not larger: V8 13.6 starts incremental marking as soon as the old
//   generation's room left under its limit is less than the young
//   generation's capacity, and the web's old generation (some 60 MB live,
//   Next's modules among it) left less room than 64 MB semi-spaces: under a
//   load of large answers the web marked and compacted its whole heap two or
//   three times a second and never scavenged (bench:api-gc, session 28: a day
//   of minute candles 1,567 µs a request at 32 to 64 MB against 1,095 at 16
//   to 32, bare server 1,280; CoinGecko tickers 1,297 against 987, bare
//   1,347; the hourly chart 2,782 against 2,825, as often scavenged). Session
//   23 chose 64 while every request's objects were promoted (session 27's
//   getter), which larger semi-spaces hid;
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
const semiSpace = has("--max-semi-space-size") || has("--min-semi-space-size") ? [] : ["--max-semi-space-size=32", "--min-semi-space-size=16"];
const missing = [...semiSpace, ...(has("--expose-gc") ? [] : ["--expose-gc"])];
if (missing.length > 0 && Number(process.versions.node.split(".")[0]) >= 24) {
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

const { runBundled } = await import("./run-bundled.mjs");

// As `next start` does: the production server, whatever the shell says.
process.env.NODE_ENV = "production";

// No source maps: Node would keep the map of every module Next loads (run-bundled.mjs).
await runBundled("web/launcher.ts", "web", { sourceMaps: false });
