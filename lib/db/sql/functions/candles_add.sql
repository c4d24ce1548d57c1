-- The function candles_add, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0010_write_path.sql). Editing this
-- file changes no database. A change is a new migration (`npm run db:generate
-- -- --custom --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Merges fills into their candles at each of `resolutions` (multiples of 60
-- seconds, so each bucket is a run of whole minutes): high, low, volumes and
-- count grow; open and close move only when a fill comes before the kept
-- open or after the kept close, by (slot, signature, ix_index), the feed's
-- order. The fills are summed by pair and minute first and the minutes rolled
-- up into each resolution's buckets, so a batch sorts its fills once rather
-- than once per resolution. Merging is order-free: a batch, or a backfill in
-- any slices, gives the same candles.
CREATE OR REPLACE FUNCTION candles_add(came fills[], resolutions integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH priced AS (
    SELECT f.token_mint, f.payment_mint,
      date_bin('1 minute', f.block_time, timestamptz '2000-01-01 00:00:00+00') AS minute,
      fill_price(o.price_per_token, o.price_scale) AS price, f.fill_amount, f.payment_amount, f.slot, f.signature, f.ix_index
    FROM unnest(came) f
    JOIN offers o ON o.pda = f.offer_pda
  ),
  minutes AS (
    SELECT token_mint, payment_mint, minute, max(price) AS high, min(price) AS low,
      sum(fill_amount) AS volume, sum(payment_amount) AS quote_volume, count(*) AS fills
    FROM priced GROUP BY token_mint, payment_mint, minute
  ),
  minute_first AS (
    SELECT DISTINCT ON (token_mint, payment_mint, minute) token_mint, payment_mint, minute, price, slot, signature, ix_index
    FROM priced ORDER BY token_mint, payment_mint, minute, slot, signature, ix_index
  ),
  minute_last AS (
    SELECT DISTINCT ON (token_mint, payment_mint, minute) token_mint, payment_mint, minute, price, slot, signature, ix_index
    FROM priced ORDER BY token_mint, payment_mint, minute, slot DESC, signature DESC, ix_index DESC
  ),
  bucketed AS (
    SELECT m.token_mint, m.payment_mint, r.resolution,
      date_bin(make_interval(secs => r.resolution), m.minute, timestamptz '2000-01-01 00:00:00+00') AS bucket,
      m.high, m.low, m.volume, m.quote_volume, m.fills,
      a.price AS open, a.slot AS open_slot, a.signature AS open_signature, a.ix_index AS open_ix_index,
      z.price AS close, z.slot AS close_slot, z.signature AS close_signature, z.ix_index AS close_ix_index
    FROM minutes m
    JOIN minute_first a USING (token_mint, payment_mint, minute)
    JOIN minute_last z USING (token_mint, payment_mint, minute)
    CROSS JOIN unnest(resolutions) AS r(resolution)
  ),
  grouped AS (
    SELECT token_mint, payment_mint, resolution, bucket, max(high) AS high, min(low) AS low,
      sum(volume) AS volume, sum(quote_volume) AS quote_volume, sum(fills)::bigint AS fills
    FROM bucketed GROUP BY token_mint, payment_mint, resolution, bucket
  ),
  first AS (
    SELECT DISTINCT ON (token_mint, payment_mint, resolution, bucket) token_mint, payment_mint, resolution, bucket,
      open, open_slot, open_signature, open_ix_index
    FROM bucketed ORDER BY token_mint, payment_mint, resolution, bucket, open_slot, open_signature, open_ix_index
  ),
  last AS (
    SELECT DISTINCT ON (token_mint, payment_mint, resolution, bucket) token_mint, payment_mint, resolution, bucket,
      close, close_slot, close_signature, close_ix_index
    FROM bucketed ORDER BY token_mint, payment_mint, resolution, bucket, close_slot DESC, close_signature DESC, close_ix_index DESC
  )
  INSERT INTO candles AS c (token_mint, payment_mint, resolution, bucket, open, high, low, close, volume, quote_volume, fills,
    open_slot, open_signature, open_ix_index, close_slot, close_signature, close_ix_index)
  SELECT g.token_mint, g.payment_mint, g.resolution, g.bucket, a.open, g.high, g.low, z.close, g.volume, g.quote_volume, g.fills,
    a.open_slot, a.open_signature, a.open_ix_index, z.close_slot, z.close_signature, z.close_ix_index
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
