-- The function rebuild_fill_slot_bounds, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0003_lapsed_and_time_bounds.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- fill_slot_bounds recomputed from the fills, set-based: the tightest bounds.
CREATE OR REPLACE FUNCTION rebuild_fill_slot_bounds() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM fill_slot_bounds;
  INSERT INTO fill_slot_bounds (minute, slot_ceiling, slot_floor)
  SELECT minute, max(hi) OVER (ORDER BY minute), min(lo) OVER (ORDER BY minute DESC)
  FROM (
    SELECT date_bin('1 minute', block_time, timestamptz '2000-01-01 00:00:00+00') AS minute, max(slot) AS hi, min(slot) AS lo
    FROM fills GROUP BY 1
  ) m;
END $$;
