-- The function candles_add, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0010_write_path.sql). Editing this
-- file changes no database. A change is a new migration (`npm run db:generate
-- -- --custom --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Merges fills into their candles at each of `resolutions` (multiples of a
-- minute): high, low, volumes and count grow; open and close move only when a
-- fill comes before the kept open or after the kept close, by (slot,
-- signature, ix_index), the feed's order. Merging is order-free: a batch, or
-- a backfill in any slices, gives the same candles. Each fill is priced once
-- and the fills are summed by pair and minute in one sort; the coarser
-- buckets (unions of whole minutes, on the same origin) are then summed from
-- those few minute rows.
CREATE OR REPLACE FUNCTION candles_add(came fills[], resolutions integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH priced AS MATERIALIZED (
    SELECT f.token_mint, f.payment_mint, date_bin('1 minute', f.block_time, timestamptz '2000-01-01 00:00:00+00') AS minute,
      fill_price(o.price_per_token, o.price_scale) AS price, f.fill_amount, f.payment_amount, f.slot, f.signature, f.ix_index
    FROM unnest(came) f
    JOIN offers o ON o.pda = f.offer_pda
  ),
  minutes AS (
    SELECT token_mint, payment_mint, minute, max(price) AS high, min(price) AS low,
      sum(fill_amount) AS volume, sum(payment_amount) AS quote_volume, count(*) AS fills,
      array_agg(price ORDER BY slot, signature, ix_index) AS prices,
      array_agg(slot ORDER BY slot, signature, ix_index) AS slots,
      array_agg(signature ORDER BY slot, signature, ix_index) AS signatures,
      array_agg(ix_index ORDER BY slot, signature, ix_index) AS ix_indexes
    FROM priced GROUP BY token_mint, payment_mint, minute
  ),
  ends AS (
    SELECT token_mint, payment_mint, minute, high, low, volume, quote_volume, fills,
      prices[1] AS open, slots[1] AS open_slot, signatures[1] AS open_signature, ix_indexes[1] AS open_ix_index,
      prices[cardinality(prices)] AS close, slots[cardinality(slots)] AS close_slot,
      signatures[cardinality(signatures)] AS close_signature, ix_indexes[cardinality(ix_indexes)] AS close_ix_index
    FROM minutes
  ),
  buckets AS (
    SELECT e.token_mint, e.payment_mint, r.resolution,
      date_bin(make_interval(secs => r.resolution), e.minute, timestamptz '2000-01-01 00:00:00+00') AS bucket,
      max(e.high) AS high, min(e.low) AS low, sum(e.volume) AS volume, sum(e.quote_volume) AS quote_volume, sum(e.fills) AS fills,
      (array_agg(e.open ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open,
      (array_agg(e.open_slot ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open_slot,
      (array_agg(e.open_signature ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open_signature,
      (array_agg(e.open_ix_index ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open_ix_index,
      (array_agg(e.close ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close,
      (array_agg(e.close_slot ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close_slot,
      (array_agg(e.close_signature ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close_signature,
      (array_agg(e.close_ix_index ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close_ix_index
    FROM ends e CROSS JOIN unnest(resolutions) AS r(resolution)
    GROUP BY 1, 2, 3, 4
  )
  INSERT INTO candles AS c (token_mint, payment_mint, resolution, bucket, open, high, low, close, volume, quote_volume, fills,
    open_slot, open_signature, open_ix_index, close_slot, close_signature, close_ix_index)
  SELECT token_mint, payment_mint, resolution, bucket, open, high, low, close, volume, quote_volume, fills,
    open_slot, open_signature, open_ix_index, close_slot, close_signature, close_ix_index
  FROM buckets
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
