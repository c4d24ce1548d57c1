-- The triggers fills_candles_insert, fills_candles_update,
-- fills_candles_delete on fills, as PostgreSQL runs them today: the
-- definitions the migrations leave (last set in drizzle/0007_candles.sql).
-- Editing this file changes no database. A change is a new migration (`npm
-- run db:generate -- --custom --name <what>` adds an empty one to drizzle/
-- and its entry to drizzle/meta/_journal.json) that drops and creates them
-- (DROP TRIGGER, CREATE TRIGGER), and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- Candles follow every statement on fills
-- (functions/fills_candles_statement.sql). Named after fills_aggregate_*:
-- triggers fire in name order, so fill_slot_bounds already covers new fills.
CREATE TRIGGER fills_candles_insert AFTER INSERT ON fills
  REFERENCING NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_candles_statement();

CREATE TRIGGER fills_candles_update AFTER UPDATE ON fills
  REFERENCING OLD TABLE AS old_fills NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_candles_statement();

CREATE TRIGGER fills_candles_delete AFTER DELETE ON fills
  REFERENCING OLD TABLE AS old_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_candles_statement();
