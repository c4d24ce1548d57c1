import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";

export const FEED_EVENT_KINDS = ["fill", "offer", "revoke", "candle"] as const;
export type FeedEventKind = (typeof FEED_EVENT_KINDS)[number];

/**
 * Every filter value of an event, in one array: what feed_events_keys_idx
 * holds. A backlog's filter asks it to contain the values wanted, and each
 * column its own value (an address of one kind matching another column's
 * would otherwise pass), so the index narrows and the columns decide.
 */
export const FEED_KEYS = "offer_pdas || makers || token_mints || payment_mints";

/**
 * The live feed's log (GET /v1/stream): every change the worker commits,
 * appended in the same transaction as the change, rendered once as the JSON
 * the API serves for it. Ids follow commit order (appenders take one advisory
 * lock before their ids: lib/db/writes/feed.ts), so a reader that asks for
 * `id > last` never skips a row that commits later.
 *
 * The filter columns are arrays so every kind is filtered alike, through one
 * GIN index over their concatenation (FEED_KEYS; one index entry per key, one
 * index to update per event rather than four): a fill or an offer holds its one offer's values; a revoke (one row
 * per undone transaction, never one per offer, so no reader sees a revoke
 * twice) holds the values of every offer the transaction touched; a candle
 * (a pair's candles after a batch's fills in one minute) holds its pair's
 * mints and no offer or maker.
 */
export const feedEvents = pgTable(
  "feed_events",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: FEED_EVENT_KINDS }).notNull(),
    /** The transaction the change came from; null for an offer passing its expiry (no transaction). */
    signature: text("signature"),
    slot: bigint("slot", { mode: "bigint" }),
    offerPdas: text("offer_pdas").array().notNull(),
    makers: text("makers").array().notNull(),
    tokenMints: text("token_mints").array().notNull(),
    paymentMints: text("payment_mints").array().notNull(),
    /** The `data:` line's JSON text, exactly as served. */
    payload: text("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("feed_events_kind", sql`${t.kind} in ('fill', 'offer', 'revoke', 'candle')`),
    index("feed_events_keys_idx").using("gin", sql.raw(`(${FEED_KEYS})`)),
  ],
);

/**
 * The retention's watermark (one row, id = 1): every event with an id at or
 * below `prunedThrough` has been deleted, so a reader resuming from an older
 * id is told to start afresh (`event: reset`) rather than given a gap.
 */
export const feedRetention = pgTable(
  "feed_retention",
  {
    id: smallint("id").primaryKey().default(1),
    prunedThrough: bigint("pruned_through", { mode: "bigint" }).notNull().default(sql`0`),
  },
  (t) => [check("feed_retention_single_row", sql`${t.id} = 1`)],
);
