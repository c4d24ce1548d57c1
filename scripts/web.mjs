// `npm run web`: the Next.js server behind a small node:http launcher
// (web/launcher.ts), bundled and run in this process (see run-bundled.mjs).

// Two V8 flags from Node 24 (V8 13.6), which V8 reads only as the process
// starts (docs/benchmarks-api.md, "Memory"):
// - the young generation held to Node 20's size: its default is now 4x as big
//   on a machine with memory to spare, two semi-spaces of 64 MB that the web's
//   start-up alone fills and V8 keeps resident;
// - the collector exposed, for platform/idle-memory.ts: V8's memory reducer no
//   longer runs in a quiet server, so the web gives a load's freed pages back
//   itself once it is quiet.
// Where one is not given yet this process is replaced (same pid, stdio,
// environment and parent) by the same Node with it, before anything is
// loaded. An operator's own setting (on the command line or in NODE_OPTIONS)
// stands. Node 20 keeps V8's young generation; its collector is exposed below.
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const missing = ["--max-semi-space-size=16", "--expose-gc"].filter((flag) => !given.some((arg) => arg.startsWith(flag.split("=")[0])));
if (missing.length > 0 && Number(process.versions.node.split(".")[0]) >= 24) {
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

// Node 20 cannot replace itself (process.execve is 22.15+ and 23.11+). Its
// memory reducer runs, but late: the web held 272-327 MB 10 s after
// bench:api's load at 1 M offers, and on a year of hourly candles (100,000
// offers) it had given nothing back 10 s after the load (228 MB; 210 MB with
// this, 2026-11-26). So the collector is exposed at run time here (V8 installs
// it in contexts made after the flag is set), and platform/idle-memory.ts
// collects after 3 quiet seconds on every Node.
if (typeof globalThis.gc !== "function") {
  const { setFlagsFromString } = await import("node:v8");
  const { runInNewContext } = await import("node:vm");
  setFlagsFromString("--expose-gc");
  globalThis.gc = runInNewContext("gc");
}

const { runBundled } = await import("./run-bundled.mjs");

// As `next start` does: the production server, whatever the shell says.
process.env.NODE_ENV = "production";

// No source maps: Node would keep the map of every module Next loads (run-bundled.mjs).
await runBundled("web/launcher.ts", "web", { sourceMaps: false });
