import { sql } from "drizzle-orm";
import journal from "../../drizzle/meta/_journal.json";
import { codedError } from "../resilience";
import type { Database } from "./client";

/** The newest migration this build knows: drizzle records each applied one with its journal `when` as created_at. */
export const LATEST_MIGRATION = Math.max(...journal.entries.map((entry) => entry.when));

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Ready to serve: the database answers and holds every migration of this
 * build (an older schema would answer queries with errors). Never throws.
 */
export async function databaseReadiness(db: Database): Promise<Readiness> {
  let rows: { latest: string | null }[];
  try {
    rows = await db.execute<{ latest: string | null }>(
      sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`,
    );
  } catch (error) {
    const code = codedError(error)?.code;
    // 42P01/3F000: no migrations table or schema yet, i.e. none applied.
    if (code === "42P01" || code === "3F000") return { ready: false, reason: "no migrations applied: run npm run db:migrate" };
    return { ready: false, reason: "the database is unreachable" };
  }
  const latest = Number(rows[0]?.latest ?? 0);
  if (latest < LATEST_MIGRATION) return { ready: false, reason: "migrations pending: run npm run db:migrate" };
  return { ready: true };
}

/** This application's connections as PostgreSQL sees them, by state, the asking one (active) included. */
export async function connectionsByState(db: Database, applicationName: string): Promise<Record<string, number>> {
  const rows = await db.execute<{ state: string | null; count: number }>(
    sql`select coalesce(state, 'unknown') as state, count(*)::int as count from pg_stat_activity
        where application_name = ${applicationName} group by 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.state ?? "unknown", row.count]));
}
