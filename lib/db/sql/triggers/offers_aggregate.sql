-- The triggers offers_aggregate_insert, offers_aggregate_update,
-- offers_aggregate_delete on offers, as PostgreSQL runs them today: the
-- definitions the migrations leave (last set in
-- drizzle/0004_statement_level_aggregates.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that drops and creates them (DROP TRIGGER,
-- CREATE TRIGGER), and this file updated to match:
-- tests/integration/db/sql-definitions.test.ts fails while the two differ.

-- The offer counts and the makers' offer figures follow every statement on
-- offers, in its transaction, over its transition tables read once
-- (functions/offers_aggregate_statement.sql).
CREATE TRIGGER offers_aggregate_insert AFTER INSERT ON offers
  REFERENCING NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_aggregate_statement();

CREATE TRIGGER offers_aggregate_update AFTER UPDATE ON offers
  REFERENCING OLD TABLE AS old_offers NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_aggregate_statement();

CREATE TRIGGER offers_aggregate_delete AFTER DELETE ON offers
  REFERENCING OLD TABLE AS old_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_aggregate_statement();
