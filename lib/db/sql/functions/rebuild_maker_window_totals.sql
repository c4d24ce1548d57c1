-- The function rebuild_maker_window_totals, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0013_maker_window_totals.sql).
-- Editing this file changes no database. A change is a new migration (`npm
-- run db:generate -- --custom --name <what>` adds an empty one to drizzle/
-- and its entry to drizzle/meta/_journal.json) that replaces it (CREATE OR
-- REPLACE FUNCTION; DROP FUNCTION first when its arguments or result change),
-- and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- Recomputes the windows' totals from maker_activity, with each window's
-- edge where it starts at `at` (the migration and rebuild_maker_activity pass
-- now(); a test passes a past time to stand for a job that has not run).
CREATE OR REPLACE FUNCTION rebuild_maker_window_totals(at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('maker_window_totals'), 0);
  UPDATE maker_window_edges SET edge = maker_window_start(resolution, buckets, at);
  DELETE FROM maker_window_totals;
  INSERT INTO maker_window_totals (window_name, maker, payment_mint, fills, offers, volume, taker_fees)
  SELECT w.window_name, a.maker, coalesce(a.payment_mint, ''), sum(a.fills), sum(a.offers), sum(a.volume), sum(a.taker_fees)
  FROM maker_window_edges w JOIN maker_activity a ON a.resolution = w.resolution AND a.bucket >= w.edge
  GROUP BY GROUPING SETS ((w.window_name, a.maker, a.payment_mint), (w.window_name, a.maker))
  HAVING sum(a.fills) <> 0 OR sum(a.offers) <> 0 OR sum(a.volume) <> 0 OR sum(a.taker_fees) <> 0;
END $$;
