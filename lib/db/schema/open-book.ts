import { bigint, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { offerSide } from "./offers";

// Each pair's open book in sum, kept by the statement triggers on offers
// (lib/db/sql/functions/open_book_apply_rows.sql) in the writer's
// transaction, like the aggregates of stats.ts: the markets' offer counts
// and the CoinGecko tickers' liquidity read these rows, never the open offers.

/**
 * One side of a pair over its open candidates: the active offers not flagged
 * lapsed. An offer past its expiry stays counted here until the lapse job
 * flags it, so a read subtracts those (state = 'active' and not lapsed and
 * expires_at <= now(), few, offers_lapse_due_idx) to be exact.
 */
export const openBook = pgTable(
  "open_book",
  {
    tokenMint: text("token_mint").notNull(),
    paymentMint: text("payment_mint").notNull(),
    side: offerSide("side").notNull(),
    offers: bigint("offers", { mode: "number" }).notNull().default(0),
    /** The sum of remaining_size * price: the side's value in raw payment units (exact, fractional). */
    value: numeric("value").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.tokenMint, t.paymentMint, t.side] })],
);
