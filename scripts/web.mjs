// `npm run web`: the Next.js server behind a small node:http launcher
// (web/launcher.ts), bundled and run in this process (see run-bundled.mjs).

// V8's memory settings for Node 24 and later (docs/benchmarks-api.md, "Memory"):
// - the young generation at Node 20's size: V8 13.6 made it 4x as big on a
//   machine with memory to spare (two semi-spaces of 64 MB, which the web's
//   start-up alone fills, kept resident);
// - memory saver mode: without it V8 13.6's memory reducer, in a process it
//   takes for a foreground tab, never runs once a load has passed, and the
//   heap's pages freed by the collector stay resident at the load's peak.
// Node 20 needs neither: its young generation is that size, and its reducer runs.
// V8 reads them as the process starts, so where one is missing this process
// is replaced (same pid, stdio, environment and parent) by the same Node with
// them, before anything is loaded (not on Windows, which has no execve). An
// operator's own setting of either (on the command line or in NODE_OPTIONS)
// stands.
const V8_FLAGS = [
  ["--max-semi-space-size", "--max-semi-space-size=16"],
  ["--memory-saver-mode", "--memory-saver-mode"],
];
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].map((arg) => arg.replace(/^--no-/, "--").replaceAll("_", "-"));
const missing = V8_FLAGS.filter(([name]) => !given.some((arg) => arg === name || arg.startsWith(`${name}=`))).map(([, flag]) => flag);
if (missing.length > 0 && Number(process.versions.node.split(".")[0]) >= 24 && process.platform !== "win32") {
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

const { runBundled } = await import("./run-bundled.mjs");

// As `next start` does: the production server, whatever the shell says.
process.env.NODE_ENV = "production";

// No source maps: Node would keep the map of every module Next loads (run-bundled.mjs).
await runBundled("web/launcher.ts", "web", { sourceMaps: false });
