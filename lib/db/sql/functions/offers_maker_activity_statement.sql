-- The function offers_maker_activity_statement, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0009_maker_activity.sql). Editing
-- this file changes no database. A change is a new migration (`npm run
-- db:generate -- --custom --name <what>` adds an empty one to drizzle/ and its
-- entry to drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE
-- FUNCTION; DROP FUNCTION first when its arguments or result change), and
-- this file updated to match: tests/integration/db/sql-definitions.test.ts
-- fails while the two differ.

-- The statement trigger function of offers for the makers' figures
-- (triggers/offers_maker_activity.sql): deleted offers are uncounted and
-- inserted ones counted; an updated offer whose counted columns (maker,
-- payment mint, creation time, original size) moved is uncounted as it was
-- and counted as it is. Most updates change sizes, states and slots only.
CREATE OR REPLACE FUNCTION offers_maker_activity_statement() RETURNS trigger
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
    SELECT array_agg(o::offers), array_agg(n::offers) INTO gone, came
    FROM old_offers o JOIN new_offers n USING (pda)
    WHERE (o.maker, o.payment_mint, o.created_at, o.original_size) IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM maker_activity_apply_offers(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM maker_activity_apply_offers(came, 1);
  END IF;
  RETURN NULL;
END $$;
