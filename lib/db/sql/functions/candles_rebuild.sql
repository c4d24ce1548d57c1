-- The function candles_rebuild, as PostgreSQL runs it today: the definition
-- the migrations leave (last set in drizzle/0007_candles.sql). Editing this
-- file changes no database. A change is a new migration (`npm run db:generate
-- -- --custom --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Rebuilds the candles of the pairs and minutes `changed` touched from the
-- fills table as it is now: each minute from its fills (an index range:
-- fill_slot_bounds bounds the minute's slots), then each coarser bucket that
-- holds such a minute from its one-minute candles, since a low or an open
-- cannot be subtracted.
CREATE OR REPLACE FUNCTION candles_rebuild(changed fills[]) RETURNS void
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
