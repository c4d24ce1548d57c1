-- The function fill_price, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0007_candles.sql). Editing this file
-- changes no database. A change is a new migration (`npm run db:generate --
-- --custom --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- The exact price of a fill: pricePerToken / 10^priceScale as a decimal,
-- without trailing zeros. Shifting the decimal point through numeric's
-- exponent input is exact at any scale, unlike a division.
CREATE OR REPLACE FUNCTION fill_price(price_per_token numeric, price_scale smallint) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT trim_scale((price_per_token::text || 'e' || (-price_scale)::text)::numeric)
$$;
