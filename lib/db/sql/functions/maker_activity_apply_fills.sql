-- The function maker_activity_apply_fills, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0009_maker_activity.sql). Editing
-- this file changes no database. A change is a new migration (`npm run
-- db:generate -- --custom --name <what>` adds an empty one to drizzle/ and its
-- entry to drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE
-- FUNCTION; DROP FUNCTION first when its arguments or result change), and
-- this file updated to match: tests/integration/db/sql-definitions.test.ts
-- fails while the two differ.

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
