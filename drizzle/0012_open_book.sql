-- Open books in sum (lib/db/schema/open-book.ts), kept by the offers'
-- statement trigger like the aggregates of 0004 and 0009, so the markets'
-- offer counts and the CoinGecko tickers' liquidity read a row per pair and
-- side instead of summing every open offer; and the book's price-ordered
-- index narrowed to the open candidates (active, not flagged lapsed), so a
-- best-price probe no longer steps past lapsed offers. Its key and predicate
-- hold no column a fill changes: a fill's size update stays HOT.
CREATE TABLE "open_book" (
	"token_mint" text NOT NULL,
	"payment_mint" text NOT NULL,
	"side" "offer_side" NOT NULL,
	"offers" bigint DEFAULT 0 NOT NULL,
	"value" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "open_book_token_mint_payment_mint_side_pk" PRIMARY KEY("token_mint","payment_mint","side")
);
--> statement-breakpoint
DROP INDEX "offers_active_book_idx";--> statement-breakpoint
CREATE INDEX "offers_open_book_idx" ON "offers" USING btree ("token_mint","payment_mint","side","price") WHERE state = 'active' and not lapsed;
--> statement-breakpoint
-- Moves open_book (lib/db/schema/open-book.ts) by `delta` times the open
-- candidates of `changed` (active, not flagged lapsed), grouped by pair and
-- side: each row is updated once per statement (see offer_counts_apply_rows).
CREATE OR REPLACE FUNCTION open_book_apply_rows(changed offers[], delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO open_book AS b (token_mint, payment_mint, side, offers, value)
  SELECT token_mint, payment_mint, side, delta * count(*), delta * sum(remaining_size * price)
  FROM unnest(changed) WHERE state = 'active' AND NOT lapsed
  GROUP BY token_mint, payment_mint, side
  ON CONFLICT (token_mint, payment_mint, side) DO UPDATE SET
    offers = b.offers + EXCLUDED.offers,
    value = b.value + EXCLUDED.value;
END $$;
--> statement-breakpoint
-- The statement trigger function of offers (triggers/offers_aggregate.sql),
-- over its transition tables read once: deleted offers are uncounted and
-- inserted ones counted, in the offer counts and the makers' figures; an
-- updated offer is uncounted as it was and counted as it is in the counts
-- when their columns (state, maker, lapsed) moved, and in the makers'
-- figures when theirs (maker, payment mint, creation time, original size)
-- did; and in the open books (open_book) when an open candidate's
-- remaining size, state, flag, pair, side or price did. Most updates change
-- sizes, states and slots only: a fill moves its offer's open book.
CREATE OR REPLACE FUNCTION offers_aggregate_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone offers[];
  came offers[];
  gone_made offers[];
  came_made offers[];
  gone_open offers[];
  came_open offers[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    came := ARRAY(SELECT n::offers FROM new_offers n);
    came_made := came;
    came_open := came;
  ELSIF TG_OP = 'DELETE' THEN
    gone := ARRAY(SELECT o::offers FROM old_offers o);
    gone_made := gone;
    gone_open := gone;
  ELSE
    SELECT
      array_agg(o::offers) FILTER (WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed)),
      array_agg(n::offers) FILTER (WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed)),
      array_agg(o::offers) FILTER (WHERE (o.maker, o.payment_mint, o.created_at, o.original_size)
        IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size)),
      array_agg(n::offers) FILTER (WHERE (o.maker, o.payment_mint, o.created_at, o.original_size)
        IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size)),
      array_agg(o::offers) FILTER (WHERE o.state = 'active' AND NOT o.lapsed),
      array_agg(n::offers) FILTER (WHERE n.state = 'active' AND NOT n.lapsed)
    INTO gone, came, gone_made, came_made, gone_open, came_open
    FROM old_offers o JOIN new_offers n USING (pda)
    WHERE (o.state, o.maker, o.lapsed, o.payment_mint, o.created_at, o.original_size, o.remaining_size, o.token_mint, o.side, o.price)
      IS DISTINCT FROM (n.state, n.maker, n.lapsed, n.payment_mint, n.created_at, n.original_size, n.remaining_size, n.token_mint, n.side, n.price);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM offer_counts_apply_rows(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM offer_counts_apply_rows(came, 1);
  END IF;
  IF cardinality(gone_made) > 0 THEN
    PERFORM maker_activity_apply_offers(gone_made, -1);
  END IF;
  IF cardinality(came_made) > 0 THEN
    PERFORM maker_activity_apply_offers(came_made, 1);
  END IF;
  IF cardinality(gone_open) > 0 THEN
    PERFORM open_book_apply_rows(gone_open, -1);
  END IF;
  IF cardinality(came_open) > 0 THEN
    PERFORM open_book_apply_rows(came_open, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recomputes every aggregate (and fill_slot_bounds) from the rows, set-based:
-- for bulk loads made with triggers off (session_replication_role = replica),
-- for audits, and for an emptied index (lib/db/writes/chain-identity.ts).
CREATE OR REPLACE FUNCTION rebuild_aggregates() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM maker_stats;
  DELETE FROM maker_volume;
  DELETE FROM protocol_mint_stats;
  DELETE FROM open_book;
  INSERT INTO protocol_stats (id) VALUES (1) ON CONFLICT DO NOTHING;
  UPDATE protocol_stats SET
    total_offers = o.total, active_offers = o.active, filled_offers = o.filled,
    cancelled_offers = o.cancelled, expired_offers = o.expired, lapsed_offers = o.lapsed,
    total_fills = (SELECT count(*) FROM fills)
  FROM (
    SELECT count(*) AS total,
      count(*) FILTER (WHERE state = 'active') AS active,
      count(*) FILTER (WHERE state = 'filled') AS filled,
      count(*) FILTER (WHERE state = 'cancelled') AS cancelled,
      count(*) FILTER (WHERE state = 'expired') AS expired,
      count(*) FILTER (WHERE state = 'active' AND lapsed) AS lapsed
    FROM offers
  ) o
  WHERE id = 1;
  INSERT INTO maker_stats (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers)
  SELECT maker, count(*),
    count(*) FILTER (WHERE state = 'active'),
    count(*) FILTER (WHERE state = 'filled'),
    count(*) FILTER (WHERE state = 'cancelled'),
    count(*) FILTER (WHERE state = 'expired'),
    count(*) FILTER (WHERE state = 'active' AND lapsed)
  FROM offers GROUP BY maker;
  INSERT INTO protocol_mint_stats (payment_mint, fees, volume, fills)
  SELECT payment_mint, sum(fee_amount), sum(payment_amount), count(*) FROM fills GROUP BY payment_mint;
  INSERT INTO maker_volume (maker, side, token_mint, amount)
  SELECT maker, side, token_mint, sum(fill_amount) FROM fills GROUP BY maker, side, token_mint;
  INSERT INTO open_book (token_mint, payment_mint, side, offers, value)
  SELECT token_mint, payment_mint, side, count(*), sum(remaining_size * price)
  FROM offers WHERE state = 'active' AND NOT lapsed GROUP BY token_mint, payment_mint, side;
  PERFORM rebuild_fill_slot_bounds();
  PERFORM rebuild_maker_activity();
END $$;
--> statement-breakpoint
-- The open books as the offers stand (later statements keep them).
INSERT INTO open_book (token_mint, payment_mint, side, offers, value)
SELECT token_mint, payment_mint, side, count(*), sum(remaining_size * price)
FROM offers WHERE state = 'active' AND NOT lapsed GROUP BY token_mint, payment_mint, side;
--> statement-breakpoint
-- Statistics for the planner at once, not when autovacuum gets round to it.
ANALYZE "open_book";
