import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../platform/postgres/embedded";
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

// On globalThis: each project's global setup may load its own copy of this module.
const shared = globalThis as typeof globalThis & { __offerBookTestServices?: Promise<Services> };

async function start(): Promise<Services> {
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
