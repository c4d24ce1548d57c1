import path from "node:path";
import type { TestProject } from "vitest/node";
import { provideTestRedis } from "./redis";

// The servers the integration and e2e tiers test against: a PostgreSQL on
// which each suite creates its own database (TEST_DATABASE_URL, else an
// embedded one from npm), and a Redis (tests/setup/redis.ts). Both tiers'
// global setups call this in the one vitest process: the first starts them,
// the last to tear down stops them.

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server on which each suite creates its own database. */
    adminDatabaseUrl: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Services {
  adminDatabaseUrl: string;
  users: number;
  stop(): Promise<void>;
}

// On globalThis: each project's global setup loads its own copy of this module.
const shared = globalThis as typeof globalThis & {
  __offerBookTestServices?: Promise<Services>;
  __offerBookEmbeddedPostgres?: Promise<typeof import("../../platform/postgres/embedded")>;
};

/**
 * The embedded PostgreSQL module, loaded once in this process whatever the
 * number of tiers: it replaces the package's exit hooks as it loads, which a
 * second copy cannot do again. Loaded even with TEST_DATABASE_URL set, so the
 * run's exit code is always the one those hooks leave (tests/integration/exit-code.test.ts).
 */
const embeddedPostgres = () => (shared.__offerBookEmbeddedPostgres ??= import("../../platform/postgres/embedded"));

async function start(): Promise<Services> {
  const { startEmbeddedPostgres } = await embeddedPostgres();
  const stopRedis = await provideTestRedis();
  const configured = process.env.TEST_DATABASE_URL;
  const embedded = configured ? undefined : await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".data", `test-pg-${process.pid}`), persistent: false });
  return {
    adminDatabaseUrl: configured ?? embedded!.adminUrl,
    users: 0,
    async stop() {
      await stopRedis();
      await embedded?.stop();
    },
  };
}

/** Starts (or joins) the servers and provides the PostgreSQL URL to the project's tests; returns the project's teardown. */
export async function provideServices(project: TestProject): Promise<() => Promise<void>> {
  const services = await (shared.__offerBookTestServices ??= start());
  services.users++;
  project.provide("adminDatabaseUrl", services.adminDatabaseUrl);
  return async () => {
    if (--services.users > 0) return;
    shared.__offerBookTestServices = undefined;
    await services.stop();
  };
}
