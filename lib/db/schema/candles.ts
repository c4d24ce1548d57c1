import { bigint, integer, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { amountSum } from "./columns";

/**
 * OHLC candles of each token/payment pair at each resolution, kept by a
 * statement trigger on fills (lib/db/sql/triggers/fills_aggregate.sql) in the
 * same transaction as the fills, so a chart reads one index range and never
 * the fills table. A
 * fill's price is its offer's pricePerToken / 10^priceScale, exact (numeric,
 * no trailing zeros). Open and close are the first and last fill by (slot,
 * signature, ixIndex), the feed's order; the key of each is kept so a later
 * batch, or a rollback, can tell which fill it is.
 */
export const candles = pgTable(
  "candles",
  {
    tokenMint: text("token_mint").notNull(),
    paymentMint: text("payment_mint").notNull(),
    /** The bucket's length in seconds: 60, 300, 900, 3600, 14400 or 86400. */
    resolution: integer("resolution").notNull(),
    /** date_bin(resolution, block_time, '2000-01-01Z'): UTC-aligned. */
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    open: numeric("open").notNull(),
    high: numeric("high").notNull(),
    low: numeric("low").notNull(),
    close: numeric("close").notNull(),
    volume: amountSum("volume").notNull(),
    quoteVolume: amountSum("quote_volume").notNull(),
    fills: bigint("fills", { mode: "number" }).notNull(),
    openSlot: bigint("open_slot", { mode: "bigint" }).notNull(),
    openSignature: text("open_signature").notNull(),
    openIxIndex: integer("open_ix_index").notNull(),
    closeSlot: bigint("close_slot", { mode: "bigint" }).notNull(),
    closeSignature: text("close_signature").notNull(),
    closeIxIndex: integer("close_ix_index").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenMint, t.paymentMint, t.resolution, t.bucket] })],
);
