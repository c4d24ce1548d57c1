-- The function maker_activity_bucket, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0009_maker_activity.sql). Editing
-- this file changes no database. A change is a new migration (`npm run
-- db:generate -- --custom --name <what>` adds an empty one to drizzle/ and its
-- entry to drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE
-- FUNCTION; DROP FUNCTION first when its arguments or result change), and
-- this file updated to match: tests/integration/db/sql-definitions.test.ts
-- fails while the two differ.

-- The bucket of `at` at `resolution` seconds in maker_activity: UTC-aligned
-- (date_bin from 2000-01-01Z, whatever the session's time zone), and the one
-- all-time bucket, -infinity, for resolution 0.
CREATE OR REPLACE FUNCTION maker_activity_bucket(resolution integer, at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN resolution = 0 THEN timestamptz '-infinity'
    ELSE date_bin(make_interval(secs => resolution), at, timestamptz '2000-01-01 00:00:00+00') END
$$;
