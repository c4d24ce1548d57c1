import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { migrateDatabase } from "../lib/db/migrate";
import { resolveDatabase } from "../lib/db/resolve";
import { env } from "../lib/env";

// `npm start`: everything on embedded defaults. The database is DATABASE_URL
// or an embedded PostgreSQL under .data/; migrations are applied; the app is
// built when there is no build; then the web server runs until SIGINT/SIGTERM.

const log = pino({ base: { service: "start" }, level: env().LOG_LEVEL });
const ROOT = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
let stopping = false;

function run(name: string, args: string[], extraEnv: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio: "inherit" });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    log.error({ name, code, signal }, "a component stopped; stopping everything");
    void shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info("stopping");
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
        }),
    ),
  );
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log.error({ err: error }, "cleanup failed"));
  process.exit(code);
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

const config = env();
const database = await resolveDatabase(config.DATABASE_URL, (line) => log.debug({ postgres: line }));
if (database.embedded) cleanups.push(() => database.embedded!.stop());
log.info({ database: config.DATABASE_URL ? "DATABASE_URL" : "embedded (.data/pg)" }, "database ready");
await migrateDatabase(database.url);
log.info("migrations applied");

const nextBin = path.join(ROOT, "node_modules/next/dist/bin/next");
if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) {
  log.info("no build yet: building the app once");
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, [nextBin, "build"], { cwd: ROOT, stdio: "inherit" });
    build.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build exited with ${code}`))));
  });
}

const shared = { DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: "1" };
run("web", [nextBin, "start", "-p", String(config.PORT)], shared);
log.info({ url: `http://localhost:${config.PORT}` }, "explorer started");
