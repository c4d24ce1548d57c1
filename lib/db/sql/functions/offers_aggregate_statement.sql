-- The function offers_aggregate_statement, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0016_trigger_join_plans.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- The statement trigger function of offers (triggers/offers_aggregate.sql),
-- over its transition tables read once: deleted offers are uncounted and
-- inserted ones counted, in the offer counts and the makers' figures; an
-- updated offer is uncounted as it was and counted as it is in the counts
-- when their columns (state, maker, lapsed) moved, and in the makers'
-- figures when theirs (maker, payment mint, creation time, original size)
-- did; and in the open books (open_book) when an open candidate's
-- remaining size, state, flag, pair, side or price did. Each figure moves
-- once per statement, by what came less what went. Most updates change
-- sizes, states and slots only: a fill moves its offer's open book.
CREATE OR REPLACE FUNCTION offers_aggregate_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone offers[];
  came offers[];
  gone_made offers[];
  came_made offers[];
  gone_open offers[];
  came_open offers[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    came := ARRAY(SELECT n::offers FROM new_offers n);
    came_made := came;
    came_open := came;
  ELSIF TG_OP = 'DELETE' THEN
    gone := ARRAY(SELECT o::offers FROM old_offers o);
    gone_made := gone;
    gone_open := gone;
  ELSE
    -- Planned at each call (EXECUTE), for the rows the transition tables hold:
    -- a plan cached at a session's first call (an upsert that updated
    -- nothing: one row estimated) joined the two tables by a nested loop,
    -- every old row against every new one, 40,000 comparisons for a
    -- batch's 200 taken offers and an eighth of the write path's time.
    EXECUTE $q$
    SELECT
      array_agg(o::offers) FILTER (WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed)),
      array_agg(n::offers) FILTER (WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed)),
      array_agg(o::offers) FILTER (WHERE (o.maker, o.payment_mint, o.created_at, o.original_size)
        IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size)),
      array_agg(n::offers) FILTER (WHERE (o.maker, o.payment_mint, o.created_at, o.original_size)
        IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size)),
      array_agg(o::offers) FILTER (WHERE o.state = 'active' AND NOT o.lapsed),
      array_agg(n::offers) FILTER (WHERE n.state = 'active' AND NOT n.lapsed)
    FROM old_offers o JOIN new_offers n USING (pda)
    WHERE (o.state, o.maker, o.lapsed, o.payment_mint, o.created_at, o.original_size, o.remaining_size, o.token_mint, o.side, o.price)
      IS DISTINCT FROM (n.state, n.maker, n.lapsed, n.payment_mint, n.created_at, n.original_size, n.remaining_size, n.token_mint, n.side, n.price)$q$
    INTO gone, came, gone_made, came_made, gone_open, came_open;
  END IF;
  IF cardinality(gone) > 0 OR cardinality(came) > 0 THEN
    PERFORM offer_counts_apply_rows(gone, came);
  END IF;
  IF cardinality(gone_made) > 0 THEN
    PERFORM maker_activity_apply_offers(gone_made, -1);
  END IF;
  IF cardinality(came_made) > 0 THEN
    PERFORM maker_activity_apply_offers(came_made, 1);
  END IF;
  IF cardinality(gone_open) > 0 OR cardinality(came_open) > 0 THEN
    PERFORM open_book_apply_rows(gone_open, came_open);
  END IF;
  RETURN NULL;
END $$;
