import { sql } from "drizzle-orm";
import { bigint, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { amountSum } from "./columns";
import { offerSide } from "./offers";

// Aggregates kept current by triggers on offers and fills (as they run today:
// lib/db/sql/triggers/offers_aggregate.sql and fills_aggregate.sql), in the
// same transaction as the rows they count, so stats never need a scan of the
// fills table and can never drift from it.

const count = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

/** A single row (id = 1). Offer counts are by on-chain state. */
export const protocolStats = pgTable("protocol_stats", {
  id: smallint("id").primaryKey(),
  totalOffers: count("total_offers"),
  activeOffers: count("active_offers"),
  filledOffers: count("filled_offers"),
  cancelledOffers: count("cancelled_offers"),
  expiredOffers: count("expired_offers"),
  /** Active offers flagged lapsed (shown as expired); see offers.lapsed. */
  lapsedOffers: count("lapsed_offers"),
  totalFills: count("total_fills"),
});

export const protocolMintStats = pgTable("protocol_mint_stats", {
  paymentMint: text("payment_mint").primaryKey(),
  fees: amountSum("fees").notNull().default(sql`0`),
  volume: amountSum("volume").notNull().default(sql`0`),
  fills: count("fills"),
});

export const makerStats = pgTable("maker_stats", {
  maker: text("maker").primaryKey(),
  totalOffers: count("total_offers"),
  activeOffers: count("active_offers"),
  filledOffers: count("filled_offers"),
  cancelledOffers: count("cancelled_offers"),
  expiredOffers: count("expired_offers"),
  /** Active offers flagged lapsed (shown as expired); see offers.lapsed. */
  lapsedOffers: count("lapsed_offers"),
});

/** Token amount moved through a maker's offers, per side and token mint. */
export const makerVolume = pgTable(
  "maker_volume",
  {
    maker: text("maker").notNull(),
    side: offerSide("side").notNull(),
    tokenMint: text("token_mint").notNull(),
    amount: amountSum("amount").notNull().default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.maker, t.side, t.tokenMint] })],
);
