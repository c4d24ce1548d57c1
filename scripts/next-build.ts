import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { StartupError } from "../platform/startup-error";

// The production build the web launcher serves (scripts/web.mjs): made once,
// by whatever starts a web process on a checkout that has none (npm start,
// npm run stack:scale, npm run bench:scale). A later change to the sources
// needs `npm run build`, as with `next start`.

const ROOT = path.resolve(import.meta.dirname, "..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** Builds the app when the checkout has no build; `log` says so first. */
export async function buildOnce(env: Record<string, string>, log: (line: string) => void, command: string): Promise<void> {
  if (existsSync(path.join(ROOT, ".next/BUILD_ID"))) return;
  log("no build yet: building the app once");
  const code = await new Promise<number | null>((resolve) => {
    const build = spawn(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
    build.on("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new StartupError(`next build failed (exit code ${code})`, `fix the error it printed above, then ${command} again`);
}
