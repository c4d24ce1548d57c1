-- The function fills_candles_statement, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in drizzle/0007_candles.sql).
-- Editing this file changes no database. A change is a new migration (`npm
-- run db:generate -- --custom --name <what>` adds an empty one to drizzle/
-- and its entry to drizzle/meta/_journal.json) that replaces it (CREATE OR
-- REPLACE FUNCTION; DROP FUNCTION first when its arguments or result change),
-- and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- The statement trigger function of fills for candles
-- (triggers/fills_candles.sql): new fills merge into their candles; deleted
-- or changed fills (a rollback) rebuild the buckets they touched.
CREATE OR REPLACE FUNCTION fills_candles_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM candles_add(ARRAY(SELECT n::fills FROM new_fills n), ARRAY[60, 300, 900, 3600, 14400, 86400]);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM candles_rebuild(ARRAY(SELECT o::fills FROM old_fills o));
  ELSE
    PERFORM candles_rebuild(ARRAY(SELECT o::fills FROM old_fills o UNION ALL SELECT n::fills FROM new_fills n));
  END IF;
  RETURN NULL;
END $$;
