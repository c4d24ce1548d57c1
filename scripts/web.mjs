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
// stands. Node 20 needs neither: its reducer runs.
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
const missing = ["--max-semi-space-size=16", "--expose-gc"].filter((flag) => !given.some((arg) => arg.startsWith(flag.split("=")[0])));
if (missing.length > 0 && Number(process.versions.node.split(".")[0]) >= 24) {
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

const { runBundled } = await import("./run-bundled.mjs");

// As `next start` does: the production server, whatever the shell says.
process.env.NODE_ENV = "production";

// No source maps: Node would keep the map of every module Next loads (run-bundled.mjs).
await runBundled("web/launcher.ts", "web", { sourceMaps: false });
