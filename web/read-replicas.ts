import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { connect, type Database } from "../lib/db/client";
import { ReadRouter } from "../lib/db/read-routing";
import * as schema from "../lib/db/schema";
import type { ServerEnv } from "../platform/env";
import type { Logger } from "../platform/log";
import { webMetrics } from "../platform/metrics";

/**
 * The web's reads over DATABASE_READ_URL's replicas (lib/db/read-routing.ts),
 * with this process's feed hub as the watermark. Without replicas every read
 * is the primary's, as before.
 */
export interface ReadReplicas {
  /** The Database the routes read from: statements routed, each when awaited. */
  reads: Database;
  /** For a stream's backlog: waits up to REPLICA_WAIT_MS for a replica to reach the watermark. */
  backlog: postgres.Sql;
  router: ReadRouter | null;
}

/** A host:port/db name for logs, never the password. */
function replicaName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
}

export function readReplicas(primary: Database, config: ServerEnv, watermark: () => bigint | null, log: Logger): ReadReplicas {
  if (config.DATABASE_READ_URL.length === 0) return { reads: primary, backlog: primary.$client, router: null };
  const pooled = config.DATABASE_POOL_MODE === "transaction";
  const metrics = webMetrics();
  const router = new ReadRouter({
    primary: primary.$client,
    replicas: config.DATABASE_READ_URL.map((url) => ({
      name: replicaName(url),
      sql: connect(url, { max: config.DATABASE_POOL_SIZE, applicationName: "offer-book-web", statementTimeoutMs: 10_000, connectTimeoutSeconds: 2, pooled }).$client,
    })),
    maxLagMs: config.REPLICA_MAX_LAG,
    watermark,
    onRead: (target, outcome) => metrics.reads.inc({ target, outcome }),
    onReplica: (name, event, detail) => {
      metrics.replicaServing.set({ replica: name }, event === "up" || event === "caught_up" ? 1 : 0);
      const line = {
        down: "replica unreachable: reads on the primary until it answers",
        up: "replica answering: reads may use it",
        lagging: `replica lags past REPLICA_MAX_LAG (${config.REPLICA_MAX_LAG} ms): reads on the primary`,
        caught_up: "replica caught up: reads back on it",
      }[event];
      log.warn({ replica: name, lagMs: Math.round(detail.lagMs), error: detail.error }, line);
    },
  });
  router.start();
  return { reads: drizzle(router.client(), { schema }) as Database, backlog: router.client({ waitMs: config.REPLICA_WAIT_MS }), router };
}
