-- The function maker_window_totals_advance, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0013_maker_window_totals.sql).
-- Editing this file changes no database. A change is a new migration (`npm
-- run db:generate -- --custom --name <what>` adds an empty one to drizzle/
-- and its entry to drizzle/meta/_journal.json) that replaces it (CREATE OR
-- REPLACE FUNCTION; DROP FUNCTION first when its arguments or result change),
-- and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- Moves each window's edge to where the window starts at `at`, taking the
-- buckets that left it out of its totals (and the rows left at zero); run by
-- the worker every few seconds, it does nothing until a bucket boundary has
-- passed. Resolves to the number of windows moved. It waits for the writers
-- in flight (their triggers hold the lock shared), so no fill is counted
-- against an edge that has moved.
CREATE OR REPLACE FUNCTION maker_window_totals_advance(at timestamptz DEFAULT now()) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  w record;
  moved integer := 0;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM maker_window_edges e WHERE e.edge < maker_window_start(e.resolution, e.buckets, at)) THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('maker_window_totals'), 0);
  FOR w IN
    SELECT e.window_name, e.resolution, e.edge, maker_window_start(e.resolution, e.buckets, at) AS next_edge
    FROM maker_window_edges e WHERE e.edge < maker_window_start(e.resolution, e.buckets, at)
  LOOP
    UPDATE maker_window_totals t SET
      fills = t.fills - l.fills, offers = t.offers - l.offers, volume = t.volume - l.volume, taker_fees = t.taker_fees - l.taker_fees
    FROM (
      SELECT a.maker, coalesce(a.payment_mint, '') AS payment_mint,
        sum(a.fills) AS fills, sum(a.offers) AS offers, sum(a.volume) AS volume, sum(a.taker_fees) AS taker_fees
      FROM maker_activity a
      WHERE a.resolution = w.resolution AND a.bucket >= w.edge AND a.bucket < w.next_edge
      GROUP BY GROUPING SETS ((a.maker, a.payment_mint), (a.maker))
    ) l
    WHERE t.window_name = w.window_name AND t.maker = l.maker AND t.payment_mint = l.payment_mint;
    DELETE FROM maker_window_totals t
    WHERE t.window_name = w.window_name AND t.fills = 0 AND t.offers = 0 AND t.volume = 0 AND t.taker_fees = 0;
    UPDATE maker_window_edges SET edge = w.next_edge WHERE window_name = w.window_name;
    moved := moved + 1;
  END LOOP;
  RETURN moved;
END $$;
