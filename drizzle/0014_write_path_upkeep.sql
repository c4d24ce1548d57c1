-- The feed's four GIN indexes (one per filter column) as one, over the
-- columns' concatenation (FEED_KEYS in lib/db/schema/feed.ts): each event
-- the write path appends updates one GIN index rather than four (the same
-- keys, one pending-list insert). A resuming stream's backlog asks the
-- concatenation to contain its filter's values and each column its own
-- (lib/feed/log.ts readMatching), so its page is still an index read.
DROP INDEX "feed_events_offer_idx";--> statement-breakpoint
DROP INDEX "feed_events_maker_idx";--> statement-breakpoint
DROP INDEX "feed_events_token_idx";--> statement-breakpoint
DROP INDEX "feed_events_payment_idx";--> statement-breakpoint
CREATE INDEX "feed_events_keys_idx" ON "feed_events" USING gin ((offer_pdas || makers || token_mints || payment_mints));--> statement-breakpoint
-- The offer counts and the open books move once per statement, by what
-- came less what went (one upsert per maker, pair and side), where an update
-- moved each row twice: down as it was, then up as it is
-- (lib/db/sql/functions/offer_counts_apply_rows.sql, open_book_apply_rows.sql).
DROP FUNCTION offer_counts_apply_rows(offers[], integer);
--> statement-breakpoint
DROP FUNCTION open_book_apply_rows(offers[], integer);
--> statement-breakpoint
CREATE FUNCTION offer_counts_apply_rows(gone offers[], came offers[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE protocol_stats SET
    total_offers = total_offers + c.total,
    active_offers = active_offers + c.active,
    filled_offers = filled_offers + c.filled,
    cancelled_offers = cancelled_offers + c.cancelled,
    expired_offers = expired_offers + c.expired,
    lapsed_offers = lapsed_offers + c.lapsed
  FROM (
    SELECT coalesce(sum(d), 0) AS total,
      coalesce(sum(d) FILTER (WHERE state = 'active'), 0) AS active,
      coalesce(sum(d) FILTER (WHERE state = 'filled'), 0) AS filled,
      coalesce(sum(d) FILTER (WHERE state = 'cancelled'), 0) AS cancelled,
      coalesce(sum(d) FILTER (WHERE state = 'expired'), 0) AS expired,
      coalesce(sum(d) FILTER (WHERE state = 'active' AND lapsed), 0) AS lapsed
    FROM (SELECT state, lapsed, -1 AS d FROM unnest(gone) UNION ALL SELECT state, lapsed, 1 FROM unnest(came)) x
  ) c
  WHERE id = 1;
  INSERT INTO maker_stats AS m (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers)
  SELECT maker, sum(d),
    coalesce(sum(d) FILTER (WHERE state = 'active'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'filled'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'cancelled'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'expired'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'active' AND lapsed), 0)
  FROM (SELECT maker, state, lapsed, -1 AS d FROM unnest(gone) UNION ALL SELECT maker, state, lapsed, 1 FROM unnest(came)) x
  GROUP BY maker
  ON CONFLICT (maker) DO UPDATE SET
    total_offers = m.total_offers + EXCLUDED.total_offers,
    active_offers = m.active_offers + EXCLUDED.active_offers,
    filled_offers = m.filled_offers + EXCLUDED.filled_offers,
    cancelled_offers = m.cancelled_offers + EXCLUDED.cancelled_offers,
    expired_offers = m.expired_offers + EXCLUDED.expired_offers,
    lapsed_offers = m.lapsed_offers + EXCLUDED.lapsed_offers;
END $$;--> statement-breakpoint
CREATE FUNCTION open_book_apply_rows(gone offers[], came offers[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO open_book AS b (token_mint, payment_mint, side, offers, value)
  SELECT token_mint, payment_mint, side, sum(d), sum(d * remaining_size * price)
  FROM (
    SELECT token_mint, payment_mint, side, remaining_size, price, -1 AS d FROM unnest(gone) WHERE state = 'active' AND NOT lapsed
    UNION ALL
    SELECT token_mint, payment_mint, side, remaining_size, price, 1 FROM unnest(came) WHERE state = 'active' AND NOT lapsed
  ) x
  GROUP BY token_mint, payment_mint, side
  ON CONFLICT (token_mint, payment_mint, side) DO UPDATE SET
    offers = b.offers + EXCLUDED.offers,
    value = b.value + EXCLUDED.value;
END $$;--> statement-breakpoint
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
  IF cardinality(gone) > 0 OR cardinality(came) > 0 THEN
    PERFORM offer_counts_apply_rows(gone, came);
  END IF;
  IF cardinality(gone_made) > 0 THEN
    PERFORM maker_activity_apply_offers(gone_made, -1);
  END IF;
  IF cardinality(came_made) > 0 THEN
    PERFORM maker_activity_apply_offers(came_made, 1);
  END IF;
  IF cardinality(gone_open) > 0 OR cardinality(came_open) > 0 THEN
    PERFORM open_book_apply_rows(gone_open, came_open);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Open offers of one side walk offers_open_created_idx and skip the other
-- side's (at most twice the rows; the planner chose it over this index on
-- 400,000 offers anyway): one index fewer for each offer inserted.
DROP INDEX "offers_open_side_created_idx";
