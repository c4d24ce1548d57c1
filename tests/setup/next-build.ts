import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

// The production build that `npm run web` serves, made when a suite needs it:
// the e2e tier's global setup asks before any test runs; an integration file
// asks when it starts a web server (tests/helpers/server.ts) or `npm start`,
// so `npm run test:integration -- tests/integration/tokens` never builds.
// Test files run in parallel processes: one builds, the others wait for it.

const ROOT = path.resolve(import.meta.dirname, "../..");
/** What the build compiles or reads: newer than .next/BUILD_ID means the build is stale. */
const BUILD_INPUTS = ["app", "components", "client", "web", "lib", "platform", "public", "next.config.mjs", "postcss.config.mjs", "tsconfig.json", "package.json"];
const BUILD_ID = path.join(ROOT, ".next/BUILD_ID");
const LOCK = path.join(ROOT, ".data/next-build.lock");
/** Longest a build may take on a busy machine before the waiters give up. */
const BUILD_DEADLINE_MS = 15 * 60_000;

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

function buildIsFresh(): boolean {
  const built = existsSync(BUILD_ID) ? statSync(BUILD_ID).mtimeMs : 0;
  return built > Math.max(...BUILD_INPUTS.map((p) => newestMtime(path.join(ROOT, p))));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Takes the build lock, or returns false while a live process holds it (a dead holder's lock is cleared). */
function tryLock(): boolean {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  try {
    mkdirSync(LOCK);
    writeFileSync(path.join(LOCK, "pid"), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    let holder = NaN;
    try {
      holder = Number(readFileSync(path.join(LOCK, "pid"), "utf8"));
    } catch {
      return false; // made a moment ago, its pid not written yet
    }
    if (!alive(holder)) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function runNextBuild(): Promise<void> {
  console.log("[tests] building the Next.js app (sources changed since the last build)");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build exited with ${code}`))));
  });
}

let confirmed = false;

/** Resolves once .next holds a build newer than every source it is made from (building it here, or waiting for the process that does). */
export async function ensureProductionBuild(): Promise<void> {
  if (confirmed) return;
  const deadline = Date.now() + BUILD_DEADLINE_MS;
  while (!buildIsFresh()) {
    if (tryLock()) {
      try {
        if (!buildIsFresh()) await runNextBuild();
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() > deadline) throw new Error(`no fresh Next.js build within ${BUILD_DEADLINE_MS / 60_000} min (lock ${LOCK})`);
    await new Promise((r) => setTimeout(r, 250)); // another process is building: look again
  }
  confirmed = true;
}
