-- The function fills_aggregate_statement, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0004_statement_level_aggregates.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- The statement trigger function of fills (triggers/fills_aggregate.sql):
-- deleted fills are uncounted and inserted ones counted, an updated fill
-- uncounted as it was and counted as it is; new fills widen fill_slot_bounds
-- minute by minute, one writer at a time since a minute's bounds depend on
-- its neighbours'. Deleted fills leave the bounds looser, still valid.
CREATE OR REPLACE FUNCTION fills_aggregate_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone fills[];
  came fills[];
  span record;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    gone := ARRAY(SELECT o::fills FROM old_fills o);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    came := ARRAY(SELECT n::fills FROM new_fills n);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM fill_sums_apply_rows(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM fill_sums_apply_rows(came, 1);
    -- One writer of the bounds at a time: a minute's bounds depend on its neighbours'.
    -- Deleted fills leave the bounds looser, still valid.
    PERFORM pg_advisory_xact_lock(hashtext('fill_slot_bounds'), 0);
    FOR span IN
      SELECT date_bin('1 minute', block_time, timestamptz '2000-01-01 00:00:00+00') AS minute, min(slot) AS lo, max(slot) AS hi
      FROM unnest(came) GROUP BY 1
    LOOP
      PERFORM fill_slot_bounds_cover(span.minute, span.lo, span.hi);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
