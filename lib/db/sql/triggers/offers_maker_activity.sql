-- The triggers offers_maker_activity_insert, offers_maker_activity_update,
-- offers_maker_activity_delete on offers, as PostgreSQL runs them today: the
-- definitions the migrations leave (last set in
-- drizzle/0009_maker_activity.sql). Editing this file changes no database.
-- A change is a new migration (`npm run db:generate -- --custom --name
-- <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that drops and creates them (DROP TRIGGER,
-- CREATE TRIGGER), and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- The makers' offer figures follow every statement on offers
-- (functions/offers_maker_activity_statement.sql), in its transaction.
CREATE TRIGGER offers_maker_activity_insert AFTER INSERT ON offers
  REFERENCING NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_maker_activity_statement();

CREATE TRIGGER offers_maker_activity_update AFTER UPDATE ON offers
  REFERENCING OLD TABLE AS old_offers NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_maker_activity_statement();

CREATE TRIGGER offers_maker_activity_delete AFTER DELETE ON offers
  REFERENCING OLD TABLE AS old_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_maker_activity_statement();
