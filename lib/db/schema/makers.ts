import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { amountSum } from "./columns";

// The makers' leaderboard and windowed stats, kept by statement triggers on
// offers and fills (lib/db/sql/triggers/offers_aggregate.sql and
// fills_aggregate.sql) in the writer's transaction, like the aggregates
// of stats.ts: a leaderboard or a maker's stats reads these rows, never the
// fills table.

const count = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

/**
 * A maker's activity in one payment mint over one bucket: hours (resolution
 * 3600) for the 24-hour window, UTC days (86400) for 7 and 30 days, and one
 * all-time row (resolution 0, bucket -infinity). Fills and their sums count
 * at the fill's block time; offers and offered size at the offer's creation.
 */
export const makerActivity = pgTable(
  "maker_activity",
  {
    /** The bucket's length in seconds: 3600, 86400, or 0 for all time. */
    resolution: integer("resolution").notNull(),
    /** date_bin(resolution, time, '2000-01-01Z'), UTC-aligned; -infinity for all time. */
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    maker: text("maker").notNull(),
    paymentMint: text("payment_mint").notNull(),
    fills: count("fills"),
    /** Offers created. */
    offers: count("offers"),
    /** Payment moved by the fills (raw payment units). */
    volume: amountSum("volume").notNull().default(sql`0`),
    /** The fees the takers of these fills paid (raw payment units). */
    takerFees: amountSum("taker_fees").notNull().default(sql`0`),
    /** Token size filled (raw token units). */
    filledSize: amountSum("filled_size").notNull().default(sql`0`),
    /** Token size offered: the created offers' original sizes (raw token units). */
    offeredSize: amountSum("offered_size").notNull().default(sql`0`),
  },
  (t) => [
    // A window is one range of the key; a maker's stats one range of the second index.
    primaryKey({ columns: [t.resolution, t.bucket, t.maker, t.paymentMint] }),
    index("maker_activity_maker_idx").on(t.maker, t.resolution, t.bucket),
  ],
);

/** Each filled offer's first fill, and how long after its creation it came, for the median wait. */
export const offerFirstFills = pgTable(
  "offer_first_fills",
  {
    offerPda: text("offer_pda").primaryKey(),
    maker: text("maker").notNull(),
    firstFillAt: timestamp("first_fill_at", { withTimezone: true }).notNull(),
    /** Whole seconds from the offer's creation to its first fill (0 if the clocks disagree). */
    waitSeconds: bigint("wait_seconds", { mode: "number" }).notNull(),
  },
  (t) => [index("offer_first_fills_maker_wait_idx").on(t.maker, t.waitSeconds)],
);
