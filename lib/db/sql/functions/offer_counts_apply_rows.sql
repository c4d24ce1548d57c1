-- The function offer_counts_apply_rows, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0004_statement_level_aggregates.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Moves the offer counts (protocol_stats, maker_stats) by `delta` times the
-- counts of `changed`, grouped by maker. The aggregates are kept by statement
-- triggers over transition tables for this: the worker writes a batch as a
-- handful of set-based statements, and a row trigger would update the one
-- protocol_stats row once per offer, each update of a row in one transaction
-- lengthening the chain of versions the next must walk. lapsed_offers counts
-- the active offers the lapse job has flagged (lib/db/schema/offers.ts).
CREATE OR REPLACE FUNCTION offer_counts_apply_rows(changed offers[], delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE protocol_stats SET
    total_offers = total_offers + delta * c.total,
    active_offers = active_offers + delta * c.active,
    filled_offers = filled_offers + delta * c.filled,
    cancelled_offers = cancelled_offers + delta * c.cancelled,
    expired_offers = expired_offers + delta * c.expired,
    lapsed_offers = lapsed_offers + delta * c.lapsed
  FROM (
    SELECT count(*) AS total,
      count(*) FILTER (WHERE state = 'active') AS active,
      count(*) FILTER (WHERE state = 'filled') AS filled,
      count(*) FILTER (WHERE state = 'cancelled') AS cancelled,
      count(*) FILTER (WHERE state = 'expired') AS expired,
      count(*) FILTER (WHERE state = 'active' AND lapsed) AS lapsed
    FROM unnest(changed)
  ) c
  WHERE id = 1;
  INSERT INTO maker_stats AS m (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers)
  SELECT maker, delta * count(*),
    delta * count(*) FILTER (WHERE state = 'active'),
    delta * count(*) FILTER (WHERE state = 'filled'),
    delta * count(*) FILTER (WHERE state = 'cancelled'),
    delta * count(*) FILTER (WHERE state = 'expired'),
    delta * count(*) FILTER (WHERE state = 'active' AND lapsed)
  FROM unnest(changed) GROUP BY maker
  ON CONFLICT (maker) DO UPDATE SET
    total_offers = m.total_offers + EXCLUDED.total_offers,
    active_offers = m.active_offers + EXCLUDED.active_offers,
    filled_offers = m.filled_offers + EXCLUDED.filled_offers,
    cancelled_offers = m.cancelled_offers + EXCLUDED.cancelled_offers,
    expired_offers = m.expired_offers + EXCLUDED.expired_offers,
    lapsed_offers = m.lapsed_offers + EXCLUDED.lapsed_offers;
END $$;
