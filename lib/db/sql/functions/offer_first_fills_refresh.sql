-- The function offer_first_fills_refresh, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0009_maker_activity.sql). Editing
-- this file changes no database. A change is a new migration (`npm run
-- db:generate -- --custom --name <what>` adds an empty one to drizzle/ and its
-- entry to drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE
-- FUNCTION; DROP FUNCTION first when its arguments or result change), and
-- this file updated to match: tests/integration/db/sql-definitions.test.ts
-- fails while the two differ.

-- Recomputes the first fill of each offer in `pdas` from the fills left
-- (fills_offer_idx), after fills were deleted or changed (a rollback): a
-- first fill cannot be subtracted. An offer left without fills has no row.
CREATE OR REPLACE FUNCTION offer_first_fills_refresh(pdas text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM offer_first_fills WHERE offer_pda = ANY (pdas);
  INSERT INTO offer_first_fills (offer_pda, maker, first_fill_at, wait_seconds)
  SELECT f.offer_pda, o.maker, min(f.block_time),
    greatest(0, floor(extract(epoch FROM min(f.block_time) - o.created_at)))::bigint
  FROM fills f JOIN offers o ON o.pda = f.offer_pda
  WHERE f.offer_pda = ANY (pdas)
  GROUP BY f.offer_pda, o.maker, o.created_at;
END $$;
