-- The function fills_aggregate_statement, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in drizzle/0010_write_path.sql).
-- Editing this file changes no database. A change is a new migration (`npm
-- run db:generate -- --custom --name <what>` adds an empty one to drizzle/
-- and its entry to drizzle/meta/_journal.json) that replaces it (CREATE OR
-- REPLACE FUNCTION; DROP FUNCTION first when its arguments or result change),
-- and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- The statement trigger function of fills (triggers/fills_aggregate.sql),
-- over its transition tables read once: deleted fills are uncounted and
-- inserted ones counted, an updated fill uncounted as it was and counted as
-- it is, in the fill sums and the makers' figures; new fills widen
-- fill_slot_bounds minute by minute, one writer at a time since a minute's
-- bounds depend on its neighbours' (deleted fills leave them looser, still
-- valid); new fills merge into their candles, deleted or changed ones (a
-- rollback) rebuild the buckets they touched, through the bounds just
-- widened; new fills can only bring an offer's first fill earlier, deleted or
-- changed ones recompute it from the fills left.
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
    PERFORM pg_advisory_xact_lock(hashtext('fill_slot_bounds'), 0);
    FOR span IN
      SELECT date_bin('1 minute', block_time, timestamptz '2000-01-01 00:00:00+00') AS minute, min(slot) AS lo, max(slot) AS hi
      FROM unnest(came) GROUP BY 1
    LOOP
      PERFORM fill_slot_bounds_cover(span.minute, span.lo, span.hi);
    END LOOP;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF cardinality(came) > 0 THEN
      PERFORM candles_add(came, ARRAY[60, 300, 900, 3600, 14400, 86400]);
    END IF;
  ELSIF cardinality(gone) > 0 THEN
    PERFORM candles_rebuild(gone || came);
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
