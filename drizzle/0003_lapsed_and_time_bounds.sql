CREATE TABLE "fill_slot_bounds" (
	"minute" timestamp with time zone PRIMARY KEY NOT NULL,
	"slot_ceiling" bigint NOT NULL,
	"slot_floor" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "offers_active_created_idx";--> statement-breakpoint
DROP INDEX "offers_token_created_idx";--> statement-breakpoint
DROP INDEX "offers_payment_created_idx";--> statement-breakpoint
DROP INDEX "offers_active_side_created_idx";--> statement-breakpoint
DROP INDEX "offers_active_expiry_idx";--> statement-breakpoint
DROP INDEX "offers_active_maker_expiry_idx";--> statement-breakpoint
DROP INDEX "fills_block_time_idx";--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "lapsed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "maker_stats" ADD COLUMN "lapsed_offers" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "protocol_stats" ADD COLUMN "lapsed_offers" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "offers_open_created_idx" ON "offers" USING btree ("created_at" DESC NULLS LAST,"pda" DESC NULLS LAST) WHERE state = 'active' and not lapsed;--> statement-breakpoint
CREATE INDEX "offers_open_side_created_idx" ON "offers" USING btree ("side","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST) WHERE state = 'active' and not lapsed;--> statement-breakpoint
CREATE INDEX "offers_open_token_created_idx" ON "offers" USING btree ("token_mint","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST) WHERE state = 'active' and not lapsed;--> statement-breakpoint
CREATE INDEX "offers_lapsed_created_idx" ON "offers" USING btree ("created_at" DESC NULLS LAST,"pda" DESC NULLS LAST) WHERE state = 'active' and lapsed;--> statement-breakpoint
CREATE INDEX "offers_token_state_created_idx" ON "offers" USING btree ("token_mint","state","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_payment_state_created_idx" ON "offers" USING btree ("payment_mint","state","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_lapse_due_idx" ON "offers" USING btree ("expires_at") WHERE state = 'active' and not lapsed;--> statement-breakpoint
CREATE INDEX "offers_lapse_due_maker_idx" ON "offers" USING btree ("maker","expires_at") WHERE state = 'active' and not lapsed;--> statement-breakpoint
-- Hand-written below. Offer aggregates gain lapsed_offers: active offers
-- flagged lapsed (by markLapsedOffers), shown as expired. The flag is only
-- ever set on an active offer past its expiry, so lapsed_offers plus a live
-- count of active, unflagged offers past expiry (offers_lapse_due_idx) is the
-- exact number of active offers past expiry at any instant.
CREATE FUNCTION offer_counts_apply(row_maker text, row_state offer_state, row_lapsed boolean, delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE protocol_stats SET
    total_offers = total_offers + delta,
    active_offers = active_offers + CASE WHEN row_state = 'active' THEN delta ELSE 0 END,
    filled_offers = filled_offers + CASE WHEN row_state = 'filled' THEN delta ELSE 0 END,
    cancelled_offers = cancelled_offers + CASE WHEN row_state = 'cancelled' THEN delta ELSE 0 END,
    expired_offers = expired_offers + CASE WHEN row_state = 'expired' THEN delta ELSE 0 END,
    lapsed_offers = lapsed_offers + CASE WHEN row_state = 'active' AND row_lapsed THEN delta ELSE 0 END
  WHERE id = 1;
  INSERT INTO maker_stats AS m (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers)
  VALUES (
    row_maker, delta,
    CASE WHEN row_state = 'active' THEN delta ELSE 0 END,
    CASE WHEN row_state = 'filled' THEN delta ELSE 0 END,
    CASE WHEN row_state = 'cancelled' THEN delta ELSE 0 END,
    CASE WHEN row_state = 'expired' THEN delta ELSE 0 END,
    CASE WHEN row_state = 'active' AND row_lapsed THEN delta ELSE 0 END)
  ON CONFLICT (maker) DO UPDATE SET
    total_offers = m.total_offers + EXCLUDED.total_offers,
    active_offers = m.active_offers + EXCLUDED.active_offers,
    filled_offers = m.filled_offers + EXCLUDED.filled_offers,
    cancelled_offers = m.cancelled_offers + EXCLUDED.cancelled_offers,
    expired_offers = m.expired_offers + EXCLUDED.expired_offers,
    lapsed_offers = m.lapsed_offers + EXCLUDED.lapsed_offers;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION offers_aggregate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.maker = NEW.maker AND OLD.state = NEW.state THEN
    -- Only the lapsed flag changed (the job's update): one counter moves.
    IF NEW.state = 'active' THEN
      UPDATE protocol_stats SET lapsed_offers = lapsed_offers + CASE WHEN NEW.lapsed THEN 1 ELSE -1 END WHERE id = 1;
      UPDATE maker_stats SET lapsed_offers = lapsed_offers + CASE WHEN NEW.lapsed THEN 1 ELSE -1 END WHERE maker = NEW.maker;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM offer_counts_apply(OLD.maker, OLD.state, OLD.lapsed, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM offer_counts_apply(NEW.maker, NEW.state, NEW.lapsed, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION offer_counts_apply(text, offer_state, integer);
--> statement-breakpoint
DROP TRIGGER offers_aggregate_update ON offers;
--> statement-breakpoint
CREATE TRIGGER offers_aggregate_update AFTER UPDATE OF state, maker, lapsed ON offers
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.maker IS DISTINCT FROM NEW.maker OR OLD.lapsed IS DISTINCT FROM NEW.lapsed)
  EXECUTE FUNCTION offers_aggregate();
--> statement-breakpoint
-- fill_slot_bounds: per minute of block time, slot_ceiling >= every slot of a
-- fill in that minute or earlier, slot_floor <= every slot of a fill in that
-- minute or later (both monotone in minute). A new fill raises the ceilings of
-- the later minutes still below its slot and lowers the floors of the earlier
-- minutes still above it: by monotonicity each is one contiguous run of
-- minutes next to the fill's, found by an index walk that stops at its end, so
-- a fill in slot order touches one row. Deletes leave the bounds looser, still
-- valid. One writer at a time (a minute's bounds depend on its neighbours').
CREATE FUNCTION fill_slot_bounds_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  m timestamptz := date_bin('1 minute', NEW.block_time, timestamptz '2000-01-01 00:00:00+00');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('fill_slot_bounds'), 0);
  UPDATE fill_slot_bounds SET slot_ceiling = NEW.slot
  WHERE minute > m AND minute < coalesce(
    (SELECT b.minute FROM fill_slot_bounds b WHERE b.minute > m AND b.slot_ceiling >= NEW.slot ORDER BY b.minute LIMIT 1),
    'infinity');
  UPDATE fill_slot_bounds SET slot_floor = NEW.slot
  WHERE minute < m AND minute > coalesce(
    (SELECT b.minute FROM fill_slot_bounds b WHERE b.minute < m AND b.slot_floor <= NEW.slot ORDER BY b.minute DESC LIMIT 1),
    '-infinity');
  INSERT INTO fill_slot_bounds AS b (minute, slot_ceiling, slot_floor)
  VALUES (m,
    greatest(NEW.slot, (SELECT p.slot_ceiling FROM fill_slot_bounds p WHERE p.minute < m ORDER BY p.minute DESC LIMIT 1)),
    least(NEW.slot, (SELECT n.slot_floor FROM fill_slot_bounds n WHERE n.minute > m ORDER BY n.minute LIMIT 1)))
  ON CONFLICT (minute) DO UPDATE SET
    slot_ceiling = greatest(b.slot_ceiling, EXCLUDED.slot_ceiling),
    slot_floor = least(b.slot_floor, EXCLUDED.slot_floor);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER fills_slot_bounds AFTER INSERT OR UPDATE OF block_time, slot ON fills
  FOR EACH ROW EXECUTE FUNCTION fill_slot_bounds_apply();
--> statement-breakpoint
-- Tight bounds recomputed from the rows, set-based.
CREATE FUNCTION rebuild_fill_slot_bounds() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM fill_slot_bounds;
  INSERT INTO fill_slot_bounds (minute, slot_ceiling, slot_floor)
  SELECT minute, max(hi) OVER (ORDER BY minute), min(lo) OVER (ORDER BY minute DESC)
  FROM (
    SELECT date_bin('1 minute', block_time, timestamptz '2000-01-01 00:00:00+00') AS minute, max(slot) AS hi, min(slot) AS lo
    FROM fills GROUP BY 1
  ) m;
END $$;
--> statement-breakpoint
SELECT rebuild_fill_slot_bounds();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rebuild_aggregates() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM maker_stats;
  DELETE FROM maker_volume;
  DELETE FROM protocol_mint_stats;
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
  PERFORM rebuild_fill_slot_bounds();
END $$;
