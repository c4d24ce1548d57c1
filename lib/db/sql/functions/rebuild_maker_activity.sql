-- The function rebuild_maker_activity, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0009_maker_activity.sql). Editing
-- this file changes no database. A change is a new migration (`npm run
-- db:generate -- --custom --name <what>` adds an empty one to drizzle/ and its
-- entry to drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE
-- FUNCTION; DROP FUNCTION first when its arguments or result change), and
-- this file updated to match: tests/integration/db/sql-definitions.test.ts
-- fails while the two differ.

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
