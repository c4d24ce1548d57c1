// `npm run worker`: the scanner process. The TypeScript sources are bundled
// with esbuild (about 0.1 s) and run in this same process, rather than under
// tsx's module loader: the loader keeps a thread and a transpile cache of its
// own for the life of the process, some 50 MB of a worker that should stay
// small. Packages are left external and load from node_modules as usual.
// Signals reach the worker directly (no wrapper process), so SIGTERM still
// ends with the batch in hand and exit 0.
import { build, stop } from "esbuild";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// One bundle per process: a standby worker may start while another runs.
// Bundles of processes that are gone (killed before their exit handler) are swept.
const buildDir = path.join(root, ".build");
const outfile = path.join(buildDir, `worker-${process.pid}.mjs`);
process.on("exit", () => rmSync(outfile, { force: true }));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
};
mkdirSync(buildDir, { recursive: true });
for (const name of readdirSync(buildDir)) {
  const pid = /^worker-(\d+)\.mjs$/.exec(name)?.[1];
  if (pid && !alive(Number(pid))) rmSync(path.join(buildDir, name), { force: true });
}

await build({
  entryPoints: [path.join(root, "worker/main.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "inline",
  outfile,
  logLevel: "warning",
});
await stop();
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outfile).href);
