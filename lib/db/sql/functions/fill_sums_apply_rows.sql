-- The function fill_sums_apply_rows, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0004_statement_level_aggregates.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Moves the fill sums (protocol_stats.total_fills, protocol_mint_stats,
-- maker_volume) by `delta` times the sums of `changed`, grouped: each row is
-- updated once per statement (see offer_counts_apply_rows).
CREATE OR REPLACE FUNCTION fill_sums_apply_rows(changed fills[], delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE protocol_stats SET total_fills = total_fills + delta * cardinality(changed) WHERE id = 1;
  INSERT INTO protocol_mint_stats AS p (payment_mint, fees, volume, fills)
  SELECT payment_mint, delta * sum(fee_amount), delta * sum(payment_amount), delta * count(*)
  FROM unnest(changed) GROUP BY payment_mint
  ON CONFLICT (payment_mint) DO UPDATE SET
    fees = p.fees + EXCLUDED.fees,
    volume = p.volume + EXCLUDED.volume,
    fills = p.fills + EXCLUDED.fills;
  INSERT INTO maker_volume AS v (maker, side, token_mint, amount)
  SELECT maker, side, token_mint, delta * sum(fill_amount)
  FROM unnest(changed) GROUP BY maker, side, token_mint
  ON CONFLICT (maker, side, token_mint) DO UPDATE SET amount = v.amount + EXCLUDED.amount;
END $$;
