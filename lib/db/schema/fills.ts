import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { u64 } from "./columns";
import { offerSide } from "./offers";

/** One executed take_offer instruction. */
export const fills = pgTable(
  "fills",
  {
    signature: text("signature").notNull(),
    /** Position of the take among the transaction's instructions, outer and inner, in execution order. */
    ixIndex: integer("ix_index").notNull(),
    offerPda: text("offer_pda").notNull(),
    maker: text("maker").notNull(),
    taker: text("taker").notNull(),
    tokenMint: text("token_mint").notNull(),
    paymentMint: text("payment_mint").notNull(),
    side: offerSide("side").notNull(),
    fillAmount: u64("fill_amount").notNull(),
    paymentAmount: u64("payment_amount").notNull(),
    feeAmount: u64("fee_amount").notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
    slot: bigint("slot", { mode: "bigint" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.signature, t.ixIndex] }),
    // The feed is newest first by (slot, signature, ix_index); each filter has an index in that order.
    // A block-time window is turned into a slot range (fill_slot_bounds below) and walks these
    // too; there is no block_time index, which would tempt the planner into sorting whole windows.
    index("fills_feed_idx").on(t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_offer_idx").on(t.offerPda, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_taker_idx").on(t.taker, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_maker_idx").on(t.maker, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_token_idx").on(t.tokenMint, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_payment_idx").on(t.paymentMint, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
  ],
);

/**
 * A map from block time to slot bounds, one row per minute that has fills,
 * kept by a trigger on fills (lib/db/sql/functions/fill_slot_bounds_cover.sql).
 * For the minute starting at `minute`: `slotCeiling` is at least the greatest slot of any
 * fill in that minute or earlier, `slotFloor` at most the least slot of any
 * fill in that minute or later. Both are monotone in `minute`, so one index
 * probe at each end of a block-time window bounds the window's slots exactly
 * (a superset, never a miss), and the feed walks its slot index between them.
 * A deleted fill leaves them as they are: looser, still bounds.
 */
export const fillSlotBounds = pgTable("fill_slot_bounds", {
  /** date_bin('1 minute', block_time, '2000-01-01Z'): independent of the session time zone. */
  minute: timestamp("minute", { withTimezone: true }).primaryKey(),
  slotCeiling: bigint("slot_ceiling", { mode: "bigint" }).notNull(),
  slotFloor: bigint("slot_floor", { mode: "bigint" }).notNull(),
});
