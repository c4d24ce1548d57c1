import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { backoffDelay } from "../resilience";
import * as schema from "./schema";

export type Database = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };

export interface ConnectOptions {
  max?: number;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
  /** Bound on a query's run time, so a request never hangs on a stuck statement. */
  statementTimeoutMs?: number;
  connectTimeoutSeconds?: number;
  /**
   * Through a pooler in transaction mode (PgBouncer): no server-side prepared
   * statements (the next transaction may run on another server connection),
   * and no statement_timeout or jit startup parameter (PgBouncer refuses unknown
   * ones): the pooler sets them on its server connections (deploy/pgbouncer.ini).
   * Unprepared, a statement whose parameters are plain values still goes in
   * one round trip (patches/postgres+3.4.9.patch; docs/scale.md).
   */
  pooled?: boolean;
}

/**
 * postgres.js waits 3^n/100 s (up to 20 s) between reconnects, and queries
 * queued meanwhile wait with it: after a PostgreSQL restart some requests
 * then stalled for 15 s and failed with the old server's error. 50 ms doubling
 * to half a second at most keeps recovery as quick as the server's return.
 */
const RECONNECT_BACKOFF = { baseMs: 50, maxMs: 500 };

/**
 * Every statement here is a short indexed read or a batch write: JIT never
 * pays. It compiled none at 1 M offers / 5 M fills, but /v1/markets and the
 * pair-day read plan at about 96,000-99,000, just under jit_above_cost
 * (100,000); past it they compiled for 364 ms instead of 18 (docs/benchmarks.md,
 * sixth pass). Pooled connections get it from PgBouncer's connect_query
 * (deploy/pgbouncer.ini), which refuses unknown startup parameters.
 */
const DIRECT_SESSION = { jit: "off" } as const;

export function connect(url: string, options: ConnectOptions = {}): Database {
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    prepare: !options.pooled,
    // Through PgBouncer (1.18), one statement at a time per connection: one
    // described before it is bound (an array parameter: Parse, Describe,
    // Flush) sent behind another lost its description when PgBouncer let go
    // of the server at the other's ReadyForQuery, and waited for ever
    // (tests/integration/db/pooled-pgbouncer.test.ts).
    ...(options.pooled ? { max_pipeline: 0 } : {}),
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    // In seconds, as postgres.js counts.
    backoff: (retries: number) => backoffDelay(RECONNECT_BACKOFF, retries) / 1000,
    connection: {
      application_name: options.applicationName ?? "offer-book",
      ...(options.pooled ? {} : DIRECT_SESSION),
      ...(options.statementTimeoutMs && !options.pooled ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
  });
  return drizzle(client, { schema });
}

export async function disconnect(db: Database): Promise<void> {
  await db.$client.end({ timeout: 5 });
}
