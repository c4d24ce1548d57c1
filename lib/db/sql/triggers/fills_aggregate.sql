-- The triggers fills_aggregate_insert, fills_aggregate_update,
-- fills_aggregate_delete on fills, as PostgreSQL runs them today: the
-- definitions the migrations leave (last set in
-- drizzle/0004_statement_level_aggregates.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that drops and creates them (DROP TRIGGER,
-- CREATE TRIGGER), and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- The fill sums, fill_slot_bounds, the candles and the makers' figures follow
-- every statement on fills, in its transaction, over its transition tables
-- read once (functions/fills_aggregate_statement.sql).
CREATE TRIGGER fills_aggregate_insert AFTER INSERT ON fills
  REFERENCING NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_aggregate_statement();

CREATE TRIGGER fills_aggregate_update AFTER UPDATE ON fills
  REFERENCING OLD TABLE AS old_fills NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_aggregate_statement();

CREATE TRIGGER fills_aggregate_delete AFTER DELETE ON fills
  REFERENCING OLD TABLE AS old_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_aggregate_statement();
