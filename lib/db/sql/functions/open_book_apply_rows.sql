-- The function open_book_apply_rows, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0012_open_book.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Moves open_book (lib/db/schema/open-book.ts) by `delta` times the open
-- candidates of `changed` (active, not flagged lapsed), grouped by pair and
-- side: each row is updated once per statement (see offer_counts_apply_rows).
CREATE OR REPLACE FUNCTION open_book_apply_rows(changed offers[], delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO open_book AS b (token_mint, payment_mint, side, offers, value)
  SELECT token_mint, payment_mint, side, delta * count(*), delta * sum(remaining_size * price)
  FROM unnest(changed) WHERE state = 'active' AND NOT lapsed
  GROUP BY token_mint, payment_mint, side
  ON CONFLICT (token_mint, payment_mint, side) DO UPDATE SET
    offers = b.offers + EXCLUDED.offers,
    value = b.value + EXCLUDED.value;
END $$;
