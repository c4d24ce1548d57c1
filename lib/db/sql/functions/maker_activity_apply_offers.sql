-- The function maker_activity_apply_offers, as PostgreSQL runs it today: the definition the
-- migrations leave (last set in drizzle/0009_maker_activity.sql). Editing
-- this file changes no database. A change is a new migration (`npm run
-- db:generate -- --custom --name <what>` adds an empty one to drizzle/ and its
-- entry to drizzle/meta/_journal.json) that replaces it (CREATE OR REPLACE
-- FUNCTION; DROP FUNCTION first when its arguments or result change), and
-- this file updated to match: tests/integration/db/sql-definitions.test.ts
-- fails while the two differ.

-- Moves maker_activity by `delta` times the offers of `changed`, counted in
-- the buckets of their creation (hour, UTC day, all time), grouped.
CREATE OR REPLACE FUNCTION maker_activity_apply_offers(changed offers[], delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO maker_activity AS a (resolution, bucket, maker, payment_mint, offers, offered_size)
  SELECT r.resolution, maker_activity_bucket(r.resolution, o.created_at), o.maker, o.payment_mint,
    delta * count(*), delta * sum(o.original_size)
  FROM unnest(changed) o CROSS JOIN unnest(ARRAY[3600, 86400, 0]) AS r(resolution)
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (resolution, bucket, maker, payment_mint) DO UPDATE SET
    offers = a.offers + EXCLUDED.offers,
    offered_size = a.offered_size + EXCLUDED.offered_size;
END $$;
