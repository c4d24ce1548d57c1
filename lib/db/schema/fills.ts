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
    index("fills_feed_idx").on(t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_offer_idx").on(t.offerPda, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_taker_idx").on(t.taker, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_maker_idx").on(t.maker, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_token_idx").on(t.tokenMint, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_payment_idx").on(t.paymentMint, t.slot.desc(), t.signature.desc(), t.ixIndex.desc()),
    index("fills_block_time_idx").on(t.blockTime),
  ],
);
