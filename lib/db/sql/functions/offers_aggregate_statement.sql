-- The function offers_aggregate_statement, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0004_statement_level_aggregates.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- The statement trigger function of offers (triggers/offers_aggregate.sql):
-- deleted offers are uncounted and inserted ones counted; an updated offer
-- whose counted columns (state, maker, lapsed) moved is uncounted as it was
-- and counted as it is.
CREATE OR REPLACE FUNCTION offers_aggregate_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone offers[];
  came offers[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    came := ARRAY(SELECT n::offers FROM new_offers n);
  ELSIF TG_OP = 'DELETE' THEN
    gone := ARRAY(SELECT o::offers FROM old_offers o);
  ELSE
    -- Only rows whose counted columns moved: most updates change sizes and slots.
    SELECT array_agg(o::offers), array_agg(n::offers) INTO gone, came
    FROM old_offers o JOIN new_offers n USING (pda)
    WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM offer_counts_apply_rows(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM offer_counts_apply_rows(came, 1);
  END IF;
  RETURN NULL;
END $$;
