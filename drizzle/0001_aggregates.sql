-- Aggregates for /v1/stats and /v1/makers/:maker/stats, kept current by
-- row triggers in the same transaction as the offers and fills they count.
-- Whatever writes the rows (worker, tests, a rollback of dropped slots),
-- the aggregates follow, and a deleted row is uncounted exactly once.

INSERT INTO protocol_stats (id) VALUES (1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION offer_counts_apply(row_maker text, row_state offer_state, delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE protocol_stats SET
    total_offers = total_offers + delta,
    active_offers = active_offers + CASE WHEN row_state = 'active' THEN delta ELSE 0 END,
    filled_offers = filled_offers + CASE WHEN row_state = 'filled' THEN delta ELSE 0 END,
    cancelled_offers = cancelled_offers + CASE WHEN row_state = 'cancelled' THEN delta ELSE 0 END,
    expired_offers = expired_offers + CASE WHEN row_state = 'expired' THEN delta ELSE 0 END
  WHERE id = 1;
  INSERT INTO maker_stats AS m (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers)
  VALUES (
    row_maker, delta,
    CASE WHEN row_state = 'active' THEN delta ELSE 0 END,
    CASE WHEN row_state = 'filled' THEN delta ELSE 0 END,
    CASE WHEN row_state = 'cancelled' THEN delta ELSE 0 END,
    CASE WHEN row_state = 'expired' THEN delta ELSE 0 END)
  ON CONFLICT (maker) DO UPDATE SET
    total_offers = m.total_offers + EXCLUDED.total_offers,
    active_offers = m.active_offers + EXCLUDED.active_offers,
    filled_offers = m.filled_offers + EXCLUDED.filled_offers,
    cancelled_offers = m.cancelled_offers + EXCLUDED.cancelled_offers,
    expired_offers = m.expired_offers + EXCLUDED.expired_offers;
END $$;
--> statement-breakpoint
CREATE FUNCTION offers_aggregate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM offer_counts_apply(OLD.maker, OLD.state, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM offer_counts_apply(NEW.maker, NEW.state, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER offers_aggregate_insert AFTER INSERT ON offers
  FOR EACH ROW EXECUTE FUNCTION offers_aggregate();
--> statement-breakpoint
CREATE TRIGGER offers_aggregate_delete AFTER DELETE ON offers
  FOR EACH ROW EXECUTE FUNCTION offers_aggregate();
--> statement-breakpoint
CREATE TRIGGER offers_aggregate_update AFTER UPDATE OF state, maker ON offers
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.maker IS DISTINCT FROM NEW.maker)
  EXECUTE FUNCTION offers_aggregate();
--> statement-breakpoint
CREATE FUNCTION fill_sums_apply(f fills, delta integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE protocol_stats SET total_fills = total_fills + delta WHERE id = 1;
  INSERT INTO protocol_mint_stats AS p (payment_mint, fees, volume, fills)
  VALUES (f.payment_mint, f.fee_amount * delta, f.payment_amount * delta, delta)
  ON CONFLICT (payment_mint) DO UPDATE SET
    fees = p.fees + EXCLUDED.fees,
    volume = p.volume + EXCLUDED.volume,
    fills = p.fills + EXCLUDED.fills;
  INSERT INTO maker_volume AS v (maker, side, token_mint, amount)
  VALUES (f.maker, f.side, f.token_mint, f.fill_amount * delta)
  ON CONFLICT (maker, side, token_mint) DO UPDATE SET amount = v.amount + EXCLUDED.amount;
END $$;
--> statement-breakpoint
CREATE FUNCTION fills_aggregate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM fill_sums_apply(OLD, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM fill_sums_apply(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER fills_aggregate AFTER INSERT OR UPDATE OR DELETE ON fills
  FOR EACH ROW EXECUTE FUNCTION fills_aggregate();
--> statement-breakpoint
-- Recomputes every aggregate from the rows, set-based: for bulk loads made
-- with triggers off (session_replication_role = replica) and for audits.
CREATE FUNCTION rebuild_aggregates() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM maker_stats;
  DELETE FROM maker_volume;
  DELETE FROM protocol_mint_stats;
  INSERT INTO protocol_stats (id) VALUES (1) ON CONFLICT DO NOTHING;
  UPDATE protocol_stats SET
    total_offers = o.total, active_offers = o.active, filled_offers = o.filled,
    cancelled_offers = o.cancelled, expired_offers = o.expired,
    total_fills = (SELECT count(*) FROM fills)
  FROM (
    SELECT count(*) AS total,
      count(*) FILTER (WHERE state = 'active') AS active,
      count(*) FILTER (WHERE state = 'filled') AS filled,
      count(*) FILTER (WHERE state = 'cancelled') AS cancelled,
      count(*) FILTER (WHERE state = 'expired') AS expired
    FROM offers
  ) o
  WHERE id = 1;
  INSERT INTO maker_stats (maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers)
  SELECT maker, count(*),
    count(*) FILTER (WHERE state = 'active'),
    count(*) FILTER (WHERE state = 'filled'),
    count(*) FILTER (WHERE state = 'cancelled'),
    count(*) FILTER (WHERE state = 'expired')
  FROM offers GROUP BY maker;
  INSERT INTO protocol_mint_stats (payment_mint, fees, volume, fills)
  SELECT payment_mint, sum(fee_amount), sum(payment_amount), count(*) FROM fills GROUP BY payment_mint;
  INSERT INTO maker_volume (maker, side, token_mint, amount)
  SELECT maker, side, token_mint, sum(fill_amount) FROM fills GROUP BY maker, side, token_mint;
END $$;
