-- The function rebuild_aggregates, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0012_open_book.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Recomputes every aggregate (and fill_slot_bounds) from the rows, set-based:
-- for bulk loads made with triggers off (session_replication_role = replica),
-- for audits, and for an emptied index (lib/db/writes/chain-identity.ts).
CREATE OR REPLACE FUNCTION rebuild_aggregates() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM maker_stats;
  DELETE FROM maker_volume;
  DELETE FROM protocol_mint_stats;
  DELETE FROM open_book;
  INSERT INTO protocol_stats (id) VALUES (1) ON CONFLICT DO NOTHING;
  UPDATE protocol_stats SET
    total_offers = o.total, active_offers = o.active, filled_offers = o.filled,
    cancelled_offers = o.cancelled, expired_offers = o.expired, lapsed_offers = o.lapsed,
    total_fills = (SELECT count(*) FROM fills)
  FROM (
    SELECT count(*) AS total,
      count(*) FILTER (WHERE state = 'active') AS active,
      count(*) FILTER (WHERE state = 'filled') AS filled,
      count(*) FILTER (WHERE state = 'cancelled') AS cancelled,
      count(*) FILTER (WHERE state = 'expired') AS expired,
      count(*) FILTER (WHERE state = 'active' AND lapsed) AS lapsed
    FROM offers
  ) o
  WHERE id = 1;
  INSERT INTO maker_stats (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers)
  SELECT maker, count(*),
    count(*) FILTER (WHERE state = 'active'),
    count(*) FILTER (WHERE state = 'filled'),
    count(*) FILTER (WHERE state = 'cancelled'),
    count(*) FILTER (WHERE state = 'expired'),
    count(*) FILTER (WHERE state = 'active' AND lapsed)
  FROM offers GROUP BY maker;
  INSERT INTO protocol_mint_stats (payment_mint, fees, volume, fills)
  SELECT payment_mint, sum(fee_amount), sum(payment_amount), count(*) FROM fills GROUP BY payment_mint;
  INSERT INTO maker_volume (maker, side, token_mint, amount)
  SELECT maker, side, token_mint, sum(fill_amount) FROM fills GROUP BY maker, side, token_mint;
  INSERT INTO open_book (token_mint, payment_mint, side, offers, value)
  SELECT token_mint, payment_mint, side, count(*), sum(remaining_size * price)
  FROM offers WHERE state = 'active' AND NOT lapsed GROUP BY token_mint, payment_mint, side;
  PERFORM rebuild_fill_slot_bounds();
  PERFORM rebuild_maker_activity();
END $$;
