// Runs a TypeScript entry point in this same process: bundled with esbuild
// (about 0.1 s) into .build/<name>-<pid>.mjs and imported, rather than under
// tsx's module loader, which keeps a thread and a transpile cache of its own
// for the life of the process (some 50 MB). Packages stay external and load
// from node_modules as usual. No wrapper process: signals reach the program.
import { build, stop } from "esbuild";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
};

/**
 * Bundles `entry` (relative to the project root) and runs it; `name` names the
 * bundle file. `sourceMaps: false` leaves Node's source-map support off: it is
 * process-wide, and in the web process it parsed and kept the map of every
 * module Next loads (its runtime's and each server chunk's, some 50-65 MB of
 * RSS); the bundle is not minified, so its stack traces still name the
 * functions, at lines of the bundle.
 */
export async function runBundled(entry, name, { sourceMaps = true } = {}) {
  // One bundle per process: a standby may start while another runs.
  // Bundles of processes that are gone (killed before their exit handler) are swept.
  const buildDir = path.join(root, ".build");
  const outfile = path.join(buildDir, `${name}-${process.pid}.mjs`);
  process.on("exit", () => rmSync(outfile, { force: true }));
  mkdirSync(buildDir, { recursive: true });
  const own = new RegExp(`^${name}-(\\d+)\\.mjs$`);
  for (const file of readdirSync(buildDir)) {
    const pid = own.exec(file)?.[1];
    if (pid && !alive(Number(pid))) rmSync(path.join(buildDir, file), { force: true });
  }
  await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: sourceMaps ? "inline" : false,
    outfile,
    logLevel: "warning",
  });
  await stop();
  if (sourceMaps) process.setSourceMapsEnabled(true);
  await import(pathToFileURL(outfile).href);
}
