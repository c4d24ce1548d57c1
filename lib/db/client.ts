import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

export type Database = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };

export interface ConnectOptions {
  max?: number;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
}

export function connect(url: string, options: ConnectOptions = {}): Database {
  const client = postgres(url, {
    max: options.max ?? 10,
    // numeric and int8 arrive as strings; bigint columns are mapped by drizzle,
    // and raw reads cast amounts to text themselves.
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? "offer-book" },
  });
  return drizzle(client, { schema });
}

export async function disconnect(db: Database): Promise<void> {
  await db.$client.end({ timeout: 5 });
}
