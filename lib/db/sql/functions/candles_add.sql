-- The function candles_add, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0007_candles.sql). Editing this file
-- changes no database. A change is a new migration (`npm run db:generate --
-- --custom --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Merges fills into their candles at each of `resolutions`: high, low,
-- volumes and count grow; open and close move only when a fill comes before
-- the kept open or after the kept close, by (slot, signature, ix_index), the
-- feed's order. Merging is order-free: a batch, or a backfill in any slices,
-- gives the same candles.
CREATE OR REPLACE FUNCTION candles_add(came fills[], resolutions integer[]) RETURNS void
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
