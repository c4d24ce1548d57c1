-- The makers' leaderboard and windowed stats (lib/db/schema/makers.ts): kept by
-- statement triggers on offers and fills over their transition tables, the
-- pattern of 0004, so a leaderboard or a maker's stats reads these rows and
-- never scans the fills table.
CREATE TABLE "maker_activity" (
	"resolution" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"maker" text NOT NULL,
	"payment_mint" text NOT NULL,
	"fills" bigint DEFAULT 0 NOT NULL,
	"offers" bigint DEFAULT 0 NOT NULL,
	"volume" numeric DEFAULT 0 NOT NULL,
	"taker_fees" numeric DEFAULT 0 NOT NULL,
	"filled_size" numeric DEFAULT 0 NOT NULL,
	"offered_size" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "maker_activity_resolution_bucket_maker_payment_mint_pk" PRIMARY KEY("resolution","bucket","maker","payment_mint")
);
--> statement-breakpoint
CREATE TABLE "offer_first_fills" (
	"offer_pda" text PRIMARY KEY NOT NULL,
	"maker" text NOT NULL,
	"first_fill_at" timestamp with time zone NOT NULL,
	"wait_seconds" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "maker_activity_maker_idx" ON "maker_activity" USING btree ("maker","resolution","bucket");--> statement-breakpoint
CREATE INDEX "offer_first_fills_maker_wait_idx" ON "offer_first_fills" USING btree ("maker","wait_seconds");
--> statement-breakpoint
-- The bucket of `at` at `resolution` seconds in maker_activity: UTC-aligned
-- (date_bin from 2000-01-01Z, whatever the session's time zone), and the one
-- all-time bucket, -infinity, for resolution 0.
CREATE OR REPLACE FUNCTION maker_activity_bucket(resolution integer, at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN resolution = 0 THEN timestamptz '-infinity'
    ELSE date_bin(make_interval(secs => resolution), at, timestamptz '2000-01-01 00:00:00+00') END
$$;
--> statement-breakpoint
-- Moves maker_activity by `delta` times the fills of `changed`, in each of
-- their buckets (hour, UTC day, all time), grouped: each row is updated once
-- per statement (see offer_counts_apply_rows).
CREATE OR REPLACE FUNCTION maker_activity_apply_fills(changed fills[], delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO maker_activity AS a (resolution, bucket, maker, payment_mint, fills, volume, taker_fees, filled_size)
  SELECT r.resolution, maker_activity_bucket(r.resolution, f.block_time), f.maker, f.payment_mint,
    delta * count(*), delta * sum(f.payment_amount), delta * sum(f.fee_amount), delta * sum(f.fill_amount)
  FROM unnest(changed) f CROSS JOIN unnest(ARRAY[3600, 86400, 0]) AS r(resolution)
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (resolution, bucket, maker, payment_mint) DO UPDATE SET
    fills = a.fills + EXCLUDED.fills,
    volume = a.volume + EXCLUDED.volume,
    taker_fees = a.taker_fees + EXCLUDED.taker_fees,
    filled_size = a.filled_size + EXCLUDED.filled_size;
END $$;
--> statement-breakpoint
-- Moves maker_activity by `delta` times the offers of `changed`, counted in
-- the buckets of their creation (hour, UTC day, all time), grouped.
CREATE OR REPLACE FUNCTION maker_activity_apply_offers(changed offers[], delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO maker_activity AS a (resolution, bucket, maker, payment_mint, offers, offered_size)
  SELECT r.resolution, maker_activity_bucket(r.resolution, o.created_at), o.maker, o.payment_mint,
    delta * count(*), delta * sum(o.original_size)
  FROM unnest(changed) o CROSS JOIN unnest(ARRAY[3600, 86400, 0]) AS r(resolution)
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (resolution, bucket, maker, payment_mint) DO UPDATE SET
    offers = a.offers + EXCLUDED.offers,
    offered_size = a.offered_size + EXCLUDED.offered_size;
END $$;
--> statement-breakpoint
-- Recomputes the first fill of each offer in `pdas` from the fills left
-- (fills_offer_idx), after fills were deleted or changed (a rollback): a
-- first fill cannot be subtracted. An offer left without fills has no row.
CREATE OR REPLACE FUNCTION offer_first_fills_refresh(pdas text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM offer_first_fills WHERE offer_pda = ANY (pdas);
  INSERT INTO offer_first_fills (offer_pda, maker, first_fill_at, wait_seconds)
  SELECT f.offer_pda, o.maker, min(f.block_time),
    greatest(0, floor(extract(epoch FROM min(f.block_time) - o.created_at)))::bigint
  FROM fills f JOIN offers o ON o.pda = f.offer_pda
  WHERE f.offer_pda = ANY (pdas)
  GROUP BY f.offer_pda, o.maker, o.created_at;
END $$;
--> statement-breakpoint
-- The statement trigger function of fills for the makers' figures
-- (triggers/fills_maker_activity.sql): deleted fills are uncounted and
-- inserted ones counted in maker_activity, an updated fill uncounted as it
-- was and counted as it is. New fills can only bring an offer's first fill
-- earlier; deleted or changed ones recompute it from the fills left.
CREATE OR REPLACE FUNCTION fills_maker_activity_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone fills[];
  came fills[];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    gone := ARRAY(SELECT o::fills FROM old_fills o);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    came := ARRAY(SELECT n::fills FROM new_fills n);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM maker_activity_apply_fills(gone, -1);
    PERFORM offer_first_fills_refresh(ARRAY(SELECT DISTINCT offer_pda FROM unnest(gone)));
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM maker_activity_apply_fills(came, 1);
    INSERT INTO offer_first_fills AS x (offer_pda, maker, first_fill_at, wait_seconds)
    SELECT f.offer_pda, o.maker, min(f.block_time),
      greatest(0, floor(extract(epoch FROM min(f.block_time) - o.created_at)))::bigint
    FROM unnest(came) f JOIN offers o ON o.pda = f.offer_pda
    GROUP BY f.offer_pda, o.maker, o.created_at
    ON CONFLICT (offer_pda) DO UPDATE SET first_fill_at = EXCLUDED.first_fill_at, wait_seconds = EXCLUDED.wait_seconds
    WHERE EXCLUDED.first_fill_at < x.first_fill_at;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The statement trigger function of offers for the makers' figures
-- (triggers/offers_maker_activity.sql): deleted offers are uncounted and
-- inserted ones counted; an updated offer whose counted columns (maker,
-- payment mint, creation time, original size) moved is uncounted as it was
-- and counted as it is. Most updates change sizes, states and slots only.
CREATE OR REPLACE FUNCTION offers_maker_activity_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone offers[];
  came offers[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    came := ARRAY(SELECT n::offers FROM new_offers n);
  ELSIF TG_OP = 'DELETE' THEN
    gone := ARRAY(SELECT o::offers FROM old_offers o);
  ELSE
    SELECT array_agg(o::offers), array_agg(n::offers) INTO gone, came
    FROM old_offers o JOIN new_offers n USING (pda)
    WHERE (o.maker, o.payment_mint, o.created_at, o.original_size) IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM maker_activity_apply_offers(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM maker_activity_apply_offers(came, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recomputes maker_activity and offer_first_fills from the rows, set-based
-- (called by rebuild_aggregates, and once by the migration that made them).
CREATE OR REPLACE FUNCTION rebuild_maker_activity() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM maker_activity;
  DELETE FROM offer_first_fills;
  INSERT INTO maker_activity (resolution, bucket, maker, payment_mint, fills, volume, taker_fees, filled_size, offers, offered_size)
  SELECT resolution, bucket, maker, payment_mint, sum(fills), sum(volume), sum(taker_fees), sum(filled_size), sum(offers), sum(offered_size)
  FROM (
    SELECT r.resolution, maker_activity_bucket(r.resolution, f.block_time) AS bucket, f.maker, f.payment_mint,
      count(*) AS fills, sum(f.payment_amount) AS volume, sum(f.fee_amount) AS taker_fees, sum(f.fill_amount) AS filled_size,
      0 AS offers, 0 AS offered_size
    FROM fills f CROSS JOIN unnest(ARRAY[3600, 86400, 0]) AS r(resolution)
    GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT r.resolution, maker_activity_bucket(r.resolution, o.created_at), o.maker, o.payment_mint,
      0, 0, 0, 0, count(*), sum(o.original_size)
    FROM offers o CROSS JOIN unnest(ARRAY[3600, 86400, 0]) AS r(resolution)
    GROUP BY 1, 2, 3, 4
  ) s
  GROUP BY 1, 2, 3, 4;
  INSERT INTO offer_first_fills (offer_pda, maker, first_fill_at, wait_seconds)
  SELECT f.offer_pda, o.maker, min(f.block_time),
    greatest(0, floor(extract(epoch FROM min(f.block_time) - o.created_at)))::bigint
  FROM fills f JOIN offers o ON o.pda = f.offer_pda
  GROUP BY f.offer_pda, o.maker, o.created_at;
END $$;
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
  PERFORM rebuild_maker_activity();
END $$;
--> statement-breakpoint
-- The makers' figures follow every statement on fills
-- (functions/fills_maker_activity_statement.sql), in its transaction.
CREATE TRIGGER fills_maker_activity_insert AFTER INSERT ON fills
  REFERENCING NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_maker_activity_statement();
--> statement-breakpoint
CREATE TRIGGER fills_maker_activity_update AFTER UPDATE ON fills
  REFERENCING OLD TABLE AS old_fills NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_maker_activity_statement();
--> statement-breakpoint
CREATE TRIGGER fills_maker_activity_delete AFTER DELETE ON fills
  REFERENCING OLD TABLE AS old_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_maker_activity_statement();
--> statement-breakpoint
-- The makers' offer figures follow every statement on offers
-- (functions/offers_maker_activity_statement.sql), in its transaction.
CREATE TRIGGER offers_maker_activity_insert AFTER INSERT ON offers
  REFERENCING NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_maker_activity_statement();
--> statement-breakpoint
CREATE TRIGGER offers_maker_activity_update AFTER UPDATE ON offers
  REFERENCING OLD TABLE AS old_offers NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_maker_activity_statement();
--> statement-breakpoint
CREATE TRIGGER offers_maker_activity_delete AFTER DELETE ON offers
  REFERENCING OLD TABLE AS old_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_maker_activity_statement();
--> statement-breakpoint
-- What was indexed before this migration.
SELECT rebuild_maker_activity();
