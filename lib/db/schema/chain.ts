import { sql } from "drizzle-orm";
import { check, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The one chain this database indexes (a single row, id = 1), recorded by the
 * worker before its first write: a worker pointed at another cluster or
 * program refuses to write rather than mix two chains' rows.
 */
export const chainIdentity = pgTable(
  "chain_identity",
  {
    id: smallint("id").primaryKey().default(1),
    /** getGenesisHash of the cluster. */
    genesisHash: text("genesis_hash").notNull(),
    programId: text("program_id").notNull(),
    /** Null when the worker was not given TREASURY_ADDRESS. */
    treasury: text("treasury"),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("chain_identity_single_row", sql`${t.id} = 1`)],
);
