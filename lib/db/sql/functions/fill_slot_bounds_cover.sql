-- The function fill_slot_bounds_cover, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0004_statement_level_aggregates.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- fill_slot_bounds (lib/db/schema/fills.ts) for fills in minute m with slots
-- lo..hi: the later minutes' ceilings still below hi rise to it, the earlier
-- minutes' floors still above lo drop to it, each one contiguous run next to
-- m. Taking a minute's fills together is the same as taking them one by one:
-- a ceiling only ever rises to the largest slot, a floor only drops to the
-- smallest.
CREATE OR REPLACE FUNCTION fill_slot_bounds_cover(m timestamptz, lo bigint, hi bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE fill_slot_bounds SET slot_ceiling = hi
  WHERE minute > m AND minute < coalesce(
    (SELECT b.minute FROM fill_slot_bounds b WHERE b.minute > m AND b.slot_ceiling >= hi ORDER BY b.minute LIMIT 1),
    'infinity');
  UPDATE fill_slot_bounds SET slot_floor = lo
  WHERE minute < m AND minute > coalesce(
    (SELECT b.minute FROM fill_slot_bounds b WHERE b.minute < m AND b.slot_floor <= lo ORDER BY b.minute DESC LIMIT 1),
    '-infinity');
  INSERT INTO fill_slot_bounds AS b (minute, slot_ceiling, slot_floor)
  VALUES (m,
    greatest(hi, (SELECT p.slot_ceiling FROM fill_slot_bounds p WHERE p.minute < m ORDER BY p.minute DESC LIMIT 1)),
    least(lo, (SELECT n.slot_floor FROM fill_slot_bounds n WHERE n.minute > m ORDER BY n.minute LIMIT 1)))
  ON CONFLICT (minute) DO UPDATE SET
    slot_ceiling = greatest(b.slot_ceiling, EXCLUDED.slot_ceiling),
    slot_floor = least(b.slot_floor, EXCLUDED.slot_floor);
END $$;
