-- The aggregates and fill_slot_bounds move from row triggers to statement
-- triggers over transition tables. The worker writes a batch of transactions
-- as a handful of set-based statements; a row trigger would still update the
-- one protocol_stats row (and each maker's row) once per offer or fill, and
-- every update of the same row in one transaction lengthens the chain of its
-- versions that the next update must walk. A statement trigger counts the
-- statement's rows grouped, and moves each counter once per statement. The
-- arithmetic is the row triggers' own: a deleted row is uncounted exactly
-- once, an update is its old row uncounted and its new row counted.
CREATE FUNCTION offer_counts_apply_rows(changed offers[], delta integer) RETURNS void
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
--> statement-breakpoint
CREATE FUNCTION offers_aggregate_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone offers[];
  came offers[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    came := ARRAY(SELECT n::offers FROM new_offers n);
  ELSIF TG_OP = 'DELETE' THEN
    gone := ARRAY(SELECT o::offers FROM old_offers o);
  ELSE
    -- Only rows whose counted columns moved: most updates change sizes and slots.
    SELECT array_agg(o::offers), array_agg(n::offers) INTO gone, came
    FROM old_offers o JOIN new_offers n USING (pda)
    WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM offer_counts_apply_rows(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM offer_counts_apply_rows(came, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION fill_sums_apply_rows(changed fills[], delta integer) RETURNS void
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
--> statement-breakpoint
-- fill_slot_bounds (see 0003) for fills in minute m with slots lo..hi: the
-- later minutes' ceilings still below hi rise to it, the earlier minutes'
-- floors still above lo drop to it, each one contiguous run next to m. Taking
-- a minute's fills together is the same as taking them one by one: a ceiling
-- only ever rises to the largest slot, a floor only drops to the smallest.
CREATE FUNCTION fill_slot_bounds_cover(m timestamptz, lo bigint, hi bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE fill_slot_bounds SET slot_ceiling = hi
  WHERE minute > m AND minute < coalesce(
    (SELECT b.minute FROM fill_slot_bounds b WHERE b.minute > m AND b.slot_ceiling >= hi ORDER BY b.minute LIMIT 1),
    'infinity');
  UPDATE fill_slot_bounds SET slot_floor = lo
  WHERE minute < m AND minute > coalesce(
    (SELECT b.minute FROM fill_slot_bounds b WHERE b.minute < m AND b.slot_floor <= lo ORDER BY b.minute DESC LIMIT 1),
    '-infinity');
  INSERT INTO fill_slot_bounds AS b (minute, slot_ceiling, slot_floor)
  VALUES (m,
    greatest(hi, (SELECT p.slot_ceiling FROM fill_slot_bounds p WHERE p.minute < m ORDER BY p.minute DESC LIMIT 1)),
    least(lo, (SELECT n.slot_floor FROM fill_slot_bounds n WHERE n.minute > m ORDER BY n.minute LIMIT 1)))
  ON CONFLICT (minute) DO UPDATE SET
    slot_ceiling = greatest(b.slot_ceiling, EXCLUDED.slot_ceiling),
    slot_floor = least(b.slot_floor, EXCLUDED.slot_floor);
END $$;
--> statement-breakpoint
CREATE FUNCTION fills_aggregate_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone fills[];
  came fills[];
  span record;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    gone := ARRAY(SELECT o::fills FROM old_fills o);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    came := ARRAY(SELECT n::fills FROM new_fills n);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM fill_sums_apply_rows(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM fill_sums_apply_rows(came, 1);
    -- One writer of the bounds at a time: a minute's bounds depend on its neighbours'.
    -- Deleted fills leave the bounds looser, still valid.
    PERFORM pg_advisory_xact_lock(hashtext('fill_slot_bounds'), 0);
    FOR span IN
      SELECT date_bin('1 minute', block_time, timestamptz '2000-01-01 00:00:00+00') AS minute, min(slot) AS lo, max(slot) AS hi
      FROM unnest(came) GROUP BY 1
    LOOP
      PERFORM fill_slot_bounds_cover(span.minute, span.lo, span.hi);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER offers_aggregate_insert ON offers;
--> statement-breakpoint
DROP TRIGGER offers_aggregate_delete ON offers;
--> statement-breakpoint
DROP TRIGGER offers_aggregate_update ON offers;
--> statement-breakpoint
DROP TRIGGER fills_aggregate ON fills;
--> statement-breakpoint
DROP TRIGGER fills_slot_bounds ON fills;
--> statement-breakpoint
DROP FUNCTION offers_aggregate();
--> statement-breakpoint
DROP FUNCTION offer_counts_apply(text, offer_state, boolean, integer);
--> statement-breakpoint
DROP FUNCTION fills_aggregate();
--> statement-breakpoint
DROP FUNCTION fill_sums_apply(fills, integer);
--> statement-breakpoint
DROP FUNCTION fill_slot_bounds_apply();
--> statement-breakpoint
CREATE TRIGGER offers_aggregate_insert AFTER INSERT ON offers
  REFERENCING NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_aggregate_statement();
--> statement-breakpoint
CREATE TRIGGER offers_aggregate_update AFTER UPDATE ON offers
  REFERENCING OLD TABLE AS old_offers NEW TABLE AS new_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_aggregate_statement();
--> statement-breakpoint
CREATE TRIGGER offers_aggregate_delete AFTER DELETE ON offers
  REFERENCING OLD TABLE AS old_offers FOR EACH STATEMENT EXECUTE FUNCTION offers_aggregate_statement();
--> statement-breakpoint
CREATE TRIGGER fills_aggregate_insert AFTER INSERT ON fills
  REFERENCING NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_aggregate_statement();
--> statement-breakpoint
CREATE TRIGGER fills_aggregate_update AFTER UPDATE ON fills
  REFERENCING OLD TABLE AS old_fills NEW TABLE AS new_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_aggregate_statement();
--> statement-breakpoint
CREATE TRIGGER fills_aggregate_delete AFTER DELETE ON fills
  REFERENCING OLD TABLE AS old_fills FOR EACH STATEMENT EXECUTE FUNCTION fills_aggregate_statement();
