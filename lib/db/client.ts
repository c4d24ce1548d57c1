import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Database = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };

export interface ConnectOptions {
  max?: number;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
  /** Bound on a query's run time, so a request never hangs on a stuck statement. */
  statementTimeoutMs?: number;
  connectTimeoutSeconds?: number;
}

export function connect(url: string, options: ConnectOptions = {}): Database {
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    connection: {
      application_name: options.applicationName ?? "offer-book",
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
  });
  return drizzle(client, { schema });
}

export async function disconnect(db: Database): Promise<void> {
  await db.$client.end({ timeout: 5 });
}
