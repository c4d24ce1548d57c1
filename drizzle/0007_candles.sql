-- Candles: one row per pair, resolution and bucket (see lib/db/schema/candles.ts).
CREATE TABLE "candles" (
	"token_mint" text NOT NULL,
	"payment_mint" text NOT NULL,
	"resolution" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"open" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	"close" numeric NOT NULL,
	"volume" numeric NOT NULL,
	"quote_volume" numeric NOT NULL,
	"fills" bigint NOT NULL,
	"open_slot" bigint NOT NULL,
	"open_signature" text NOT NULL,
	"open_ix_index" integer NOT NULL,
	"close_slot" bigint NOT NULL,
	"close_signature" text NOT NULL,
	"close_ix_index" integer NOT NULL,
	CONSTRAINT "candles_token_mint_payment_mint_resolution_bucket_pk" PRIMARY KEY("token_mint","payment_mint","resolution","bucket")
);
--> statement-breakpoint
-- Candles follow fills the way the aggregates of 0004 do: a statement trigger
-- over the transition tables, in the writer's transaction, so the worker's
-- statements stay as they are. New fills merge into their buckets (open and
-- close move only if a new fill comes before or after the kept one, by slot,
-- signature and position); deleted or changed fills (a rollback) rebuild the
-- minutes they touched from the fills left, and each coarser bucket from its
-- minutes, since a low or an open cannot be subtracted.

-- The exact price of a fill: pricePerToken / 10^priceScale as a decimal,
-- without trailing zeros. Shifting the decimal point through numeric's
-- exponent input is exact at any scale, unlike a division.
CREATE FUNCTION fill_price(price_per_token numeric, price_scale smallint) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT trim_scale((price_per_token::text || 'e' || (-price_scale)::text)::numeric)
$$;
--> statement-breakpoint
CREATE FUNCTION candles_add(came fills[], resolutions integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH priced AS (
    SELECT f.token_mint, f.payment_mint, r.resolution,
      date_bin(make_interval(secs => r.resolution), f.block_time, timestamptz '2000-01-01 00:00:00+00') AS bucket,
      fill_price(o.price_per_token, o.price_scale) AS price, f.fill_amount, f.payment_amount, f.slot, f.signature, f.ix_index
    FROM unnest(came) f
    JOIN offers o ON o.pda = f.offer_pda
    CROSS JOIN unnest(resolutions) AS r(resolution)
  ),
  grouped AS (
    SELECT token_mint, payment_mint, resolution, bucket, max(price) AS high, min(price) AS low,
      sum(fill_amount) AS volume, sum(payment_amount) AS quote_volume, count(*) AS fills
    FROM priced GROUP BY token_mint, payment_mint, resolution, bucket
  ),
  first AS (
    SELECT DISTINCT ON (token_mint, payment_mint, resolution, bucket) token_mint, payment_mint, resolution, bucket,
      price, slot, signature, ix_index
    FROM priced ORDER BY token_mint, payment_mint, resolution, bucket, slot, signature, ix_index
  ),
  last AS (
    SELECT DISTINCT ON (token_mint, payment_mint, resolution, bucket) token_mint, payment_mint, resolution, bucket,
      price, slot, signature, ix_index
    FROM priced ORDER BY token_mint, payment_mint, resolution, bucket, slot DESC, signature DESC, ix_index DESC
  )
  INSERT INTO candles AS c (token_mint, payment_mint, resolution, bucket, open, high, low, close, volume, quote_volume, fills,
    open_slot, open_signature, open_ix_index, close_slot, close_signature, close_ix_index)
  SELECT g.token_mint, g.payment_mint, g.resolution, g.bucket, a.price, g.high, g.low, z.price, g.volume, g.quote_volume, g.fills,
    a.slot, a.signature, a.ix_index, z.slot, z.signature, z.ix_index
  FROM grouped g
  JOIN first a USING (token_mint, payment_mint, resolution, bucket)
  JOIN last z USING (token_mint, payment_mint, resolution, bucket)
  ON CONFLICT (token_mint, payment_mint, resolution, bucket) DO UPDATE SET
    open = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open ELSE c.open END,
    open_slot = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open_slot ELSE c.open_slot END,
    open_signature = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open_signature ELSE c.open_signature END,
    open_ix_index = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open_ix_index ELSE c.open_ix_index END,
    close = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close ELSE c.close END,
    close_slot = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close_slot ELSE c.close_slot END,
    close_signature = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close_signature ELSE c.close_signature END,
    close_ix_index = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close_ix_index ELSE c.close_ix_index END,
    high = greatest(c.high, EXCLUDED.high),
    low = least(c.low, EXCLUDED.low),
    volume = c.volume + EXCLUDED.volume,
    quote_volume = c.quote_volume + EXCLUDED.quote_volume,
    fills = c.fills + EXCLUDED.fills;
END $$;
--> statement-breakpoint
-- Rebuilds the candles of the pairs and minutes `changed` touched from the
-- fills table as it is now: each minute from its fills (an index range:
-- fill_slot_bounds bounds the minute's slots), then each coarser bucket that
-- holds such a minute from its one-minute candles.
CREATE FUNCTION candles_rebuild(changed fills[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  k record;
BEGIN
  FOR k IN
    SELECT DISTINCT token_mint, payment_mint, date_bin('1 minute', block_time, timestamptz '2000-01-01 00:00:00+00') AS minute
    FROM unnest(changed)
  LOOP
    DELETE FROM candles WHERE token_mint = k.token_mint AND payment_mint = k.payment_mint AND resolution = 60 AND bucket = k.minute;
    PERFORM candles_add(ARRAY(
      SELECT f FROM fills f
      WHERE f.token_mint = k.token_mint AND f.payment_mint = k.payment_mint
        AND f.block_time >= k.minute AND f.block_time < k.minute + interval '1 minute'
        AND f.slot >= coalesce((SELECT b.slot_floor FROM fill_slot_bounds b WHERE b.minute = k.minute), 0)
        AND f.slot <= coalesce((SELECT b.slot_ceiling FROM fill_slot_bounds b WHERE b.minute = k.minute), 9223372036854775807)
    ), ARRAY[60]);
  END LOOP;
  FOR k IN
    SELECT DISTINCT f.token_mint, f.payment_mint, r.resolution,
      date_bin(make_interval(secs => r.resolution), f.block_time, timestamptz '2000-01-01 00:00:00+00') AS bucket
    FROM unnest(changed) f CROSS JOIN unnest(ARRAY[300, 900, 3600, 14400, 86400]) AS r(resolution)
  LOOP
    DELETE FROM candles WHERE token_mint = k.token_mint AND payment_mint = k.payment_mint AND resolution = k.resolution AND bucket = k.bucket;
    INSERT INTO candles (token_mint, payment_mint, resolution, bucket, open, high, low, close, volume, quote_volume, fills,
      open_slot, open_signature, open_ix_index, close_slot, close_signature, close_ix_index)
    SELECT k.token_mint, k.payment_mint, k.resolution, k.bucket, a.open, g.high, g.low, z.close, g.volume, g.quote_volume, g.fills,
      a.open_slot, a.open_signature, a.open_ix_index, z.close_slot, z.close_signature, z.close_ix_index
    FROM (
      SELECT max(high) AS high, min(low) AS low, sum(volume) AS volume, sum(quote_volume) AS quote_volume, sum(fills) AS fills
      FROM candles m
      WHERE m.token_mint = k.token_mint AND m.payment_mint = k.payment_mint AND m.resolution = 60
        AND m.bucket >= k.bucket AND m.bucket < k.bucket + make_interval(secs => k.resolution)
    ) g,
    LATERAL (
      SELECT m.open, m.open_slot, m.open_signature, m.open_ix_index FROM candles m
      WHERE m.token_mint = k.token_mint AND m.payment_mint = k.payment_mint AND m.resolution = 60
        AND m.bucket >= k.bucket AND m.bucket < k.bucket + make_interval(secs => k.resolution)
      ORDER BY m.open_slot, m.open_signature, m.open_ix_index LIMIT 1
    ) a,
    LATERAL (
      SELECT m.close, m.close_slot, m.close_signature, m.close_ix_index FROM candles m
      WHERE m.token_mint = k.token_mint AND m.payment_mint = k.payment_mint AND m.resolution = 60
        AND m.bucket >= k.bucket AND m.bucket < k.bucket + make_interval(secs => k.resolution)
      ORDER BY m.close_slot DESC, m.close_signature DESC, m.close_ix_index DESC LIMIT 1
    ) z;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION fills_candles_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM candles_add(ARRAY(SELECT n::fills FROM new_fills n), ARRAY[60, 300, 900, 3600, 14400, 86400]);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM candles_rebuild(ARRAY(SELECT o::fills FROM old_fills o));
  ELSE
    PERFORM candles_rebuild(ARRAY(SELECT o::fills FROM old_fills o UNION ALL SELECT n::fills FROM new_fills n));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Named after fills_aggregate_*: triggers fire in name order, so fill_slot_bounds already covers new fills.
CREATE TRIGGER fills_candles_insert AFTER INSERT ON fills
  REFERENCING NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_candles_statement();
--> statement-breakpoint
CREATE TRIGGER fills_candles_update AFTER UPDATE ON fills
  REFERENCING OLD TABLE AS old_fills NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_candles_statement();
--> statement-breakpoint
CREATE TRIGGER fills_candles_delete AFTER DELETE ON fills
  REFERENCING OLD TABLE AS old_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_candles_statement();
--> statement-breakpoint
-- Candles of fills recorded before this migration, in slot ranges of about
-- 50,000 fills (merging is order-free), so no array holds the whole table.
DO $$
DECLARE
  lo bigint := -1;
  hi bigint;
BEGIN
  LOOP
    SELECT max(slot) INTO hi FROM (SELECT slot FROM fills WHERE slot > lo ORDER BY slot LIMIT 50000) s;
    EXIT WHEN hi IS NULL;
    PERFORM candles_add(ARRAY(SELECT f FROM fills f WHERE f.slot > lo AND f.slot <= hi), ARRAY[60, 300, 900, 3600, 14400, 86400]);
    lo := hi;
  END LOOP;
END $$;
