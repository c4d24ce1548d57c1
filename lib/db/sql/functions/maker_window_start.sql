-- The function maker_window_start, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0013_maker_window_totals.sql).
-- Editing this file changes no database. A change is a new migration (`npm
-- run db:generate -- --custom --name <what>` adds an empty one to drizzle/
-- and its entry to drizzle/meta/_journal.json) that replaces it (CREATE OR
-- REPLACE FUNCTION; DROP FUNCTION first when its arguments or result change),
-- and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- The first bucket of a window of `buckets` buckets of `resolution` seconds
-- at time `at`: the current bucket and the ones before it
-- (lib/db/reads/maker-windows.ts); -infinity for all time.
CREATE OR REPLACE FUNCTION maker_window_start(resolution integer, buckets integer, at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN resolution = 0 THEN timestamptz '-infinity'
    ELSE maker_activity_bucket(resolution, at) - make_interval(secs => (buckets - 1) * resolution) END
$$;
