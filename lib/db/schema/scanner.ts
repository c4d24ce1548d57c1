import { sql } from "drizzle-orm";
import { bigint, boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Where the scanner stands on one program: the newest signature it has applied. */
export const scannerCheckpoints = pgTable("scanner_checkpoints", {
  programId: text("program_id").primaryKey(),
  lastSignature: text("last_signature"),
  lastSlot: bigint("last_slot", { mode: "bigint" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every program transaction the scanner has applied, failed ones included, so
 * a replay recognises what it has seen and a rollback knows what to undo.
 */
export const scannedTransactions = pgTable(
  "scanned_transactions",
  {
    signature: text("signature").primaryKey(),
    slot: bigint("slot", { mode: "bigint" }).notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }),
    failed: boolean("failed").notNull().default(false),
    /** Offers the transaction changed, so undoing it touches only them. */
    offerPdas: text("offer_pdas").array().notNull().default(sql`'{}'`),
    finalized: boolean("finalized").notNull().default(false),
  },
  (t) => [
    index("scanned_transactions_slot_idx").on(t.slot),
    // The few transactions not yet final, oldest first: the finality tick's
    // page and the DEXTools horizon read them without walking every final one.
    index("scanned_transactions_unfinalized_idx").on(t.slot).where(sql`not ${t.finalized}`),
  ],
);
