-- The function offer_counts_apply_rows, as PostgreSQL runs it today: the
-- definition the migrations leave (last set in
-- drizzle/0014_write_path_upkeep.sql). Editing this file changes no
-- database. A change is a new migration (`npm run db:generate -- --custom
-- --name <what>` adds an empty one to drizzle/ and its entry to
-- drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE FUNCTION;
-- DROP FUNCTION first when its arguments or result change), and this file
-- updated to match: tests/integration/db/sql-definitions.test.ts fails while
-- the two differ.

-- Moves the offer counts (protocol_stats, maker_stats) by the counts of
-- `came` less those of `gone` (an update's rows as they are and as they
-- were), grouped by maker: one pass over both, so an update moves each row
-- once rather than once down and once up. The aggregates are kept by
-- statement triggers over transition tables for this: the worker writes a
-- batch as a handful of set-based statements, and a row trigger would update
-- the one protocol_stats row once per offer, each update of a row in one
-- transaction lengthening the chain of versions the next must walk.
-- lapsed_offers counts the active offers the lapse job has flagged
-- (lib/db/schema/offers.ts).
CREATE OR REPLACE FUNCTION offer_counts_apply_rows(gone offers[], came offers[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE protocol_stats SET
    total_offers = total_offers + c.total,
    active_offers = active_offers + c.active,
    filled_offers = filled_offers + c.filled,
    cancelled_offers = cancelled_offers + c.cancelled,
    expired_offers = expired_offers + c.expired,
    lapsed_offers = lapsed_offers + c.lapsed
  FROM (
    SELECT coalesce(sum(d), 0) AS total,
      coalesce(sum(d) FILTER (WHERE state = 'active'), 0) AS active,
      coalesce(sum(d) FILTER (WHERE state = 'filled'), 0) AS filled,
      coalesce(sum(d) FILTER (WHERE state = 'cancelled'), 0) AS cancelled,
      coalesce(sum(d) FILTER (WHERE state = 'expired'), 0) AS expired,
      coalesce(sum(d) FILTER (WHERE state = 'active' AND lapsed), 0) AS lapsed
    FROM (SELECT state, lapsed, -1 AS d FROM unnest(gone) UNION ALL SELECT state, lapsed, 1 FROM unnest(came)) x
  ) c
  WHERE id = 1;
  INSERT INTO maker_stats AS m (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, lapsed_offers)
  SELECT maker, sum(d),
    coalesce(sum(d) FILTER (WHERE state = 'active'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'filled'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'cancelled'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'expired'), 0),
    coalesce(sum(d) FILTER (WHERE state = 'active' AND lapsed), 0)
  FROM (SELECT maker, state, lapsed, -1 AS d FROM unnest(gone) UNION ALL SELECT maker, state, lapsed, 1 FROM unnest(came)) x
  GROUP BY maker
  ON CONFLICT (maker) DO UPDATE SET
    total_offers = m.total_offers + EXCLUDED.total_offers,
    active_offers = m.active_offers + EXCLUDED.active_offers,
    filled_offers = m.filled_offers + EXCLUDED.filled_offers,
    cancelled_offers = m.cancelled_offers + EXCLUDED.cancelled_offers,
    expired_offers = m.expired_offers + EXCLUDED.expired_offers,
    lapsed_offers = m.lapsed_offers + EXCLUDED.lapsed_offers;
END $$;
