// `npm run web`: the Next.js server behind a small node:http launcher
// (scripts/web-server.ts). The TypeScript is bundled with esbuild (about
// 0.1 s) and run in this same process, as `npm run worker` does, so no
// TypeScript loader stays alive beside the server. Packages stay external.
import { build, stop } from "esbuild";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// As `next start` does: the production server, whatever the shell says.
process.env.NODE_ENV = "production";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildDir = path.join(root, ".build");
const outfile = path.join(buildDir, `web-${process.pid}.mjs`);
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
  const pid = /^web-(\d+)\.mjs$/.exec(name)?.[1];
  if (pid && !alive(Number(pid))) rmSync(path.join(buildDir, name), { force: true });
}

await build({
  entryPoints: [path.join(root, "scripts/web-server.ts")],
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
await import(pathToFileURL(outfile).href);
