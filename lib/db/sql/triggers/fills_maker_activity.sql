-- The triggers fills_maker_activity_insert, fills_maker_activity_update,
-- fills_maker_activity_delete on fills, as PostgreSQL runs them today: the
-- definitions the migrations leave (last set in
-- drizzle/0009_maker_activity.sql). Editing this file changes no database.
-- A change is a new migration (`npm run db:generate -- --custom --name
-- <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that drops and creates them (DROP TRIGGER,
-- CREATE TRIGGER), and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- The makers' figures follow every statement on fills
-- (functions/fills_maker_activity_statement.sql), in its transaction.
CREATE TRIGGER fills_maker_activity_insert AFTER INSERT ON fills
  REFERENCING NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_maker_activity_statement();

CREATE TRIGGER fills_maker_activity_update AFTER UPDATE ON fills
  REFERENCING OLD TABLE AS old_fills NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_maker_activity_statement();

CREATE TRIGGER fills_maker_activity_delete AFTER DELETE ON fills
  REFERENCING OLD TABLE AS old_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_maker_activity_statement();
