import { sql } from "drizzle-orm";
import { bigint, boolean, index, numeric, pgEnum, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { u64 } from "./columns";

export const offerSide = pgEnum("offer_side", ["sell", "buy"]);

/** The program's own state byte; the API's `status` is derived from it and the clock. */
export const offerState = pgEnum("offer_state", ["active", "filled", "cancelled", "expired"]);

export const offers = pgTable(
  "offers",
  {
    pda: text("pda").primaryKey(),
    maker: text("maker").notNull(),
    tokenMint: text("token_mint").notNull(),
    paymentMint: text("payment_mint").notNull(),
    side: offerSide("side").notNull(),
    nonce: u64("nonce").notNull(),
    originalSize: u64("original_size").notNull(),
    remainingSize: u64("remaining_size").notNull(),
    pricePerToken: u64("price_per_token").notNull(),
    priceScale: smallint("price_scale").notNull(),
    /** pricePerToken / 10^priceScale, exact, for ordering the book by price. */
    price: numeric("price").generatedAlwaysAs(sql`price_per_token / power(10::numeric, price_scale)`),
    minFill: u64("min_fill").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    state: offerState("state").notNull().default("active"),
    /**
     * Set (never cleared) by a periodic job, markLapsedOffers, on active offers
     * already past their expiry; it only ever says what the clock already says
     * (expires_at <= now()). Reads stay exact whether or not the job has run:
     * an active offer past expiry and not yet flagged is counted live, over a
     * partial index that holds only such offers. The flag makes those sets small.
     */
    lapsed: boolean("lapsed").notNull().default(false),
    /** When close_offer deleted the account; the row stays for history. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdSignature: text("created_signature"),
    /** The transactions that ended (cancel/expire/last fill) and closed the offer, so a dropped one can be undone. */
    endedSignature: text("ended_signature"),
    closedSignature: text("closed_signature"),
    createdSlot: bigint("created_slot", { mode: "bigint" }),
    /**
     * Slot of the account snapshot that remaining_size and state were last taken
     * from; fills at or before it are already reflected in them.
     */
    accountSlot: bigint("account_slot", { mode: "bigint" }),
    lastSlot: bigint("last_slot", { mode: "bigint" }).notNull(),
    indexedAt: timestamp("indexed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Every list is newest first by (created_at, pda); each index below ends in that order
    // so a filtered page is an index range scan with no sort. "Open" candidates are the
    // active offers not flagged lapsed (a set bounded by 30 days of creation).
    index("offers_open_created_idx").on(t.createdAt.desc(), t.pda.desc()).where(sql`state = 'active' and not lapsed`),
    // No index per side: open offers of one side walk offers_open_created_idx and skip the other
    // side's (at most twice the rows); the planner never chose a side index over it.
    index("offers_open_token_created_idx").on(t.tokenMint, t.createdAt.desc(), t.pda.desc()).where(sql`state = 'active' and not lapsed`),
    // Active offers flagged lapsed: the bulk of "expired" before they are cranked.
    index("offers_lapsed_created_idx").on(t.createdAt.desc(), t.pda.desc()).where(sql`state = 'active' and lapsed`),
    index("offers_state_created_idx").on(t.state, t.createdAt.desc(), t.pda.desc()),
    index("offers_maker_created_idx").on(t.maker, t.createdAt.desc(), t.pda.desc()),
    // A mint has many offers: with the state in the key, each status branch is its own ordered range.
    index("offers_token_state_created_idx").on(t.tokenMint, t.state, t.createdAt.desc(), t.pda.desc()),
    index("offers_payment_state_created_idx").on(t.paymentMint, t.state, t.createdAt.desc(), t.pda.desc()),
    // A market's offers by creation (slot, then time): its first offer is the DEXTools pair's creation.
    index("offers_pair_created_idx").on(t.tokenMint, t.paymentMint, t.createdSlot, t.createdAt).where(sql`created_slot is not null`),
    // The book of each pair and side in price order, over the open candidates only: a best-price
    // probe or a book walk steps past no lapsed offer (the expiry part of "open" is a filter).
    // Its columns never change on a fill, so a fill's size update stays HOT.
    index("offers_open_book_idx").on(t.tokenMint, t.paymentMint, t.side, t.price).where(sql`state = 'active' and not lapsed`),
    // Active offers past their expiry but not yet flagged: the job's work list and the
    // live part of every lapsed count; small whenever the job keeps up.
    index("offers_lapse_due_idx").on(t.expiresAt).where(sql`state = 'active' and not lapsed`),
    index("offers_lapse_due_maker_idx").on(t.maker, t.expiresAt).where(sql`state = 'active' and not lapsed`),
  ],
);
