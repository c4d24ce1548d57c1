-- The function fills_maker_activity_statement, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0009_maker_activity.sql). Editing
-- this file changes no database. A change is a new migration (`npm run
-- db:generate -- --custom --name <what>` adds an empty one to drizzle/ and its
-- entry to drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE
-- FUNCTION; DROP FUNCTION first when its arguments or result change), and
-- this file updated to match: tests/integration/db/sql-definitions.test.ts
-- fails while the two differ.

-- The statement trigger function of fills for the makers' figures
-- (triggers/fills_maker_activity.sql): deleted fills are uncounted and
-- inserted ones counted in maker_activity, an updated fill uncounted as it
-- was and counted as it is. New fills can only bring an offer's first fill
-- earlier; deleted or changed ones recompute it from the fills left.
CREATE OR REPLACE FUNCTION fills_maker_activity_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone fills[];
  came fills[];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    gone := ARRAY(SELECT o::fills FROM old_fills o);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    came := ARRAY(SELECT n::fills FROM new_fills n);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM maker_activity_apply_fills(gone, -1);
    PERFORM offer_first_fills_refresh(ARRAY(SELECT DISTINCT offer_pda FROM unnest(gone)));
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM maker_activity_apply_fills(came, 1);
    INSERT INTO offer_first_fills AS x (offer_pda, maker, first_fill_at, wait_seconds)
    SELECT f.offer_pda, o.maker, min(f.block_time),
      greatest(0, floor(extract(epoch FROM min(f.block_time) - o.created_at)))::bigint
    FROM unnest(came) f JOIN offers o ON o.pda = f.offer_pda
    GROUP BY f.offer_pda, o.maker, o.created_at
    ON CONFLICT (offer_pda) DO UPDATE SET first_fill_at = EXCLUDED.first_fill_at, wait_seconds = EXCLUDED.wait_seconds
    WHERE EXCLUDED.first_fill_at < x.first_fill_at;
  END IF;
  RETURN NULL;
END $$;
