import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../platform/postgres/embedded";
import { provideTestRedis } from "./redis";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server on which each suite creates its own database. */
    adminDatabaseUrl: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");
// web, client and platform are bundled into the routes too: a change there must rebuild as well.
const BUILD_INPUTS = ["app", "lib", "web", "client", "platform", "components", "public", "next.config.mjs", "package.json"];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** The HTTP suites run the production server, so build when the sources are newer than the build. */
function ensureProductionBuild(): void {
  const buildId = path.join(ROOT, ".next/BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const sources = Math.max(...BUILD_INPUTS.map((p) => newestMtime(path.join(ROOT, p))));
  if (built > sources) return;
  console.log("[tests] building the Next.js app (sources changed since the last build)");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

let embedded: EmbeddedDatabase | undefined;
let stopRedis = async () => {};

export async function setup(project: TestProject): Promise<void> {
  ensureProductionBuild();
  stopRedis = await provideTestRedis();
  const configured = process.env.TEST_DATABASE_URL;
  if (configured) {
    project.provide("adminDatabaseUrl", configured);
    return;
  }
  embedded = await startEmbeddedPostgres({
    dataDir: path.join(ROOT, ".data", `test-pg-${process.pid}`),
    persistent: false,
  });
  project.provide("adminDatabaseUrl", embedded.adminUrl);
}

export async function teardown(): Promise<void> {
  await stopRedis();
  await embedded?.stop();
}
