// `npm run web`: the Next.js server behind a small node:http launcher
// (web/launcher.ts), bundled and run in this process (see run-bundled.mjs).

// V8's young generation, held to Node 20's size. From Node 24 (V8 13.6) its
// default is 4x as big on a machine with memory to spare: two semi-spaces of
// 64 MB, which the web's start-up alone fills, and V8 keeps them resident
// (docs/benchmarks-api.md, "Memory"). Node 20 (16 MB semi-spaces) needs
// nothing. V8 reads the size once, as the process starts, so where it is not
// given yet this process is replaced (same pid, stdio, environment and
// parent) by the same Node with it, before anything is loaded. An operator's
// own --max-semi-space-size (on the command line or in NODE_OPTIONS) stands.
const YOUNG = "--max-semi-space-size";
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].some((arg) => arg.startsWith(YOUNG));
if (!given && Number(process.versions.node.split(".")[0]) >= 24) {
  process.execve(process.execPath, [process.execPath, `${YOUNG}=16`, ...process.execArgv, ...process.argv.slice(1)], process.env);
}

const { runBundled } = await import("./run-bundled.mjs");

// As `next start` does: the production server, whatever the shell says.
process.env.NODE_ENV = "production";

// No source maps: Node would keep the map of every module Next loads (run-bundled.mjs).
await runBundled("web/launcher.ts", "web", { sourceMaps: false });
