-- The function open_book_apply_rows, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0014_write_path_upkeep.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Moves open_book (lib/db/schema/open-book.ts) by the open candidates
-- (active, not flagged lapsed) of `came` less those of `gone`, grouped by
-- pair and side: each row is updated once per statement (see
-- offer_counts_apply_rows), a fill's offer moved down as it was and up as it
-- is in one upsert.
CREATE OR REPLACE FUNCTION open_book_apply_rows(gone offers[], came offers[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO open_book AS b (token_mint, payment_mint, side, offers, value)
  SELECT token_mint, payment_mint, side, sum(d), sum(d * remaining_size * price)
  FROM (
    SELECT token_mint, payment_mint, side, remaining_size, price, -1 AS d FROM unnest(gone) WHERE state = 'active' AND NOT lapsed
    UNION ALL
    SELECT token_mint, payment_mint, side, remaining_size, price, 1 FROM unnest(came) WHERE state = 'active' AND NOT lapsed
  ) x
  GROUP BY token_mint, payment_mint, side
  ON CONFLICT (token_mint, payment_mint, side) DO UPDATE SET
    offers = b.offers + EXCLUDED.offers,
    value = b.value + EXCLUDED.value;
END $$;
