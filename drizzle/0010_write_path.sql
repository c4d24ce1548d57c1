-- The write path's triggers, one per table and statement kind (issue 21):
-- fills had three statement triggers (sums and bounds, candles, the makers'
-- figures) and offers two (counts, the makers' figures), each reading the
-- statement's transition tables into arrays of its own. Each table now has
-- one trigger function that reads them once and does all of it, in the order
-- the triggers fired (name order): sums and bounds, candles, makers.
DROP TRIGGER fills_candles_insert ON fills;
--> statement-breakpoint
DROP TRIGGER fills_candles_update ON fills;
--> statement-breakpoint
DROP TRIGGER fills_candles_delete ON fills;
--> statement-breakpoint
DROP TRIGGER fills_maker_activity_insert ON fills;
--> statement-breakpoint
DROP TRIGGER fills_maker_activity_update ON fills;
--> statement-breakpoint
DROP TRIGGER fills_maker_activity_delete ON fills;
--> statement-breakpoint
DROP TRIGGER offers_maker_activity_insert ON offers;
--> statement-breakpoint
DROP TRIGGER offers_maker_activity_update ON offers;
--> statement-breakpoint
DROP TRIGGER offers_maker_activity_delete ON offers;
--> statement-breakpoint
DROP FUNCTION fills_candles_statement();
--> statement-breakpoint
DROP FUNCTION fills_maker_activity_statement();
--> statement-breakpoint
DROP FUNCTION offers_maker_activity_statement();
--> statement-breakpoint
-- The statement trigger function of fills (triggers/fills_aggregate.sql),
-- over its transition tables read once: deleted fills are uncounted and
-- inserted ones counted, an updated fill uncounted as it was and counted as
-- it is, in the fill sums and the makers' figures; new fills widen
-- fill_slot_bounds minute by minute, one writer at a time since a minute's
-- bounds depend on its neighbours' (deleted fills leave them looser, still
-- valid); new fills merge into their candles, deleted or changed ones (a
-- rollback) rebuild the buckets they touched, through the bounds just
-- widened; new fills can only bring an offer's first fill earlier, deleted or
-- changed ones recompute it from the fills left.
CREATE OR REPLACE FUNCTION fills_aggregate_statement() RETURNS trigger
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
    PERFORM pg_advisory_xact_lock(hashtext('fill_slot_bounds'), 0);
    FOR span IN
      SELECT date_bin('1 minute', block_time, timestamptz '2000-01-01 00:00:00+00') AS minute, min(slot) AS lo, max(slot) AS hi
      FROM unnest(came) GROUP BY 1
    LOOP
      PERFORM fill_slot_bounds_cover(span.minute, span.lo, span.hi);
    END LOOP;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF cardinality(came) > 0 THEN
      PERFORM candles_add(came, ARRAY[60, 300, 900, 3600, 14400, 86400]);
    END IF;
  ELSIF cardinality(gone) > 0 THEN
    PERFORM candles_rebuild(gone || came);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM maker_activity_apply_fills(gone, -1);
    PERFORM offer_first_fills_refresh(ARRAY(SELECT DISTINCT offer_pda FROM unnest(gone)));
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM maker_activity_apply_fills(came, 1);
    INSERT INTO offer_first_fills AS x (offer_pda, maker, first_fill_at, wait_seconds)
    SELECT f.offer_pda, o.maker, min(f.block_time),
      greatest(0, floor(extract(epoch FROM min(f.block_time) - o.created_at)))::bigint
    FROM unnest(came) f JOIN offers o ON o.pda = f.offer_pda
    GROUP BY f.offer_pda, o.maker, o.created_at
    ON CONFLICT (offer_pda) DO UPDATE SET first_fill_at = EXCLUDED.first_fill_at, wait_seconds = EXCLUDED.wait_seconds
    WHERE EXCLUDED.first_fill_at < x.first_fill_at;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The statement trigger function of offers (triggers/offers_aggregate.sql),
-- over its transition tables read once: deleted offers are uncounted and
-- inserted ones counted, in the offer counts and the makers' figures; an
-- updated offer is uncounted as it was and counted as it is in the counts
-- when their columns (state, maker, lapsed) moved, and in the makers'
-- figures when theirs (maker, payment mint, creation time, original size)
-- did. Most updates change sizes, states and slots only.
CREATE OR REPLACE FUNCTION offers_aggregate_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  gone offers[];
  came offers[];
  gone_made offers[];
  came_made offers[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    came := ARRAY(SELECT n::offers FROM new_offers n);
    came_made := came;
  ELSIF TG_OP = 'DELETE' THEN
    gone := ARRAY(SELECT o::offers FROM old_offers o);
    gone_made := gone;
  ELSE
    SELECT
      array_agg(o::offers) FILTER (WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed)),
      array_agg(n::offers) FILTER (WHERE (o.state, o.maker, o.lapsed) IS DISTINCT FROM (n.state, n.maker, n.lapsed)),
      array_agg(o::offers) FILTER (WHERE (o.maker, o.payment_mint, o.created_at, o.original_size)
        IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size)),
      array_agg(n::offers) FILTER (WHERE (o.maker, o.payment_mint, o.created_at, o.original_size)
        IS DISTINCT FROM (n.maker, n.payment_mint, n.created_at, n.original_size))
    INTO gone, came, gone_made, came_made
    FROM old_offers o JOIN new_offers n USING (pda)
    WHERE (o.state, o.maker, o.lapsed, o.payment_mint, o.created_at, o.original_size)
      IS DISTINCT FROM (n.state, n.maker, n.lapsed, n.payment_mint, n.created_at, n.original_size);
  END IF;
  IF cardinality(gone) > 0 THEN
    PERFORM offer_counts_apply_rows(gone, -1);
  END IF;
  IF cardinality(came) > 0 THEN
    PERFORM offer_counts_apply_rows(came, 1);
  END IF;
  IF cardinality(gone_made) > 0 THEN
    PERFORM maker_activity_apply_offers(gone_made, -1);
  END IF;
  IF cardinality(came_made) > 0 THEN
    PERFORM maker_activity_apply_offers(came_made, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Merges fills into their candles at each of `resolutions` (multiples of a
-- minute): high, low, volumes and count grow; open and close move only when a
-- fill comes before the kept open or after the kept close, by (slot,
-- signature, ix_index), the feed's order. Merging is order-free: a batch, or
-- a backfill in any slices, gives the same candles. Each fill is priced once
-- and the fills are summed by pair and minute in one sort; the coarser
-- buckets (unions of whole minutes, on the same origin) are then summed from
-- those few minute rows.
CREATE OR REPLACE FUNCTION candles_add(came fills[], resolutions integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH priced AS MATERIALIZED (
    SELECT f.token_mint, f.payment_mint, date_bin('1 minute', f.block_time, timestamptz '2000-01-01 00:00:00+00') AS minute,
      fill_price(o.price_per_token, o.price_scale) AS price, f.fill_amount, f.payment_amount, f.slot, f.signature, f.ix_index
    FROM unnest(came) f
    JOIN offers o ON o.pda = f.offer_pda
  ),
  minutes AS (
    SELECT token_mint, payment_mint, minute, max(price) AS high, min(price) AS low,
      sum(fill_amount) AS volume, sum(payment_amount) AS quote_volume, count(*) AS fills,
      array_agg(price ORDER BY slot, signature, ix_index) AS prices,
      array_agg(slot ORDER BY slot, signature, ix_index) AS slots,
      array_agg(signature ORDER BY slot, signature, ix_index) AS signatures,
      array_agg(ix_index ORDER BY slot, signature, ix_index) AS ix_indexes
    FROM priced GROUP BY token_mint, payment_mint, minute
  ),
  ends AS (
    SELECT token_mint, payment_mint, minute, high, low, volume, quote_volume, fills,
      prices[1] AS open, slots[1] AS open_slot, signatures[1] AS open_signature, ix_indexes[1] AS open_ix_index,
      prices[cardinality(prices)] AS close, slots[cardinality(slots)] AS close_slot,
      signatures[cardinality(signatures)] AS close_signature, ix_indexes[cardinality(ix_indexes)] AS close_ix_index
    FROM minutes
  ),
  buckets AS (
    SELECT e.token_mint, e.payment_mint, r.resolution,
      date_bin(make_interval(secs => r.resolution), e.minute, timestamptz '2000-01-01 00:00:00+00') AS bucket,
      max(e.high) AS high, min(e.low) AS low, sum(e.volume) AS volume, sum(e.quote_volume) AS quote_volume, sum(e.fills) AS fills,
      (array_agg(e.open ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open,
      (array_agg(e.open_slot ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open_slot,
      (array_agg(e.open_signature ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open_signature,
      (array_agg(e.open_ix_index ORDER BY e.open_slot, e.open_signature, e.open_ix_index))[1] AS open_ix_index,
      (array_agg(e.close ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close,
      (array_agg(e.close_slot ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close_slot,
      (array_agg(e.close_signature ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close_signature,
      (array_agg(e.close_ix_index ORDER BY e.close_slot DESC, e.close_signature DESC, e.close_ix_index DESC))[1] AS close_ix_index
    FROM ends e CROSS JOIN unnest(resolutions) AS r(resolution)
    GROUP BY 1, 2, 3, 4
  )
  INSERT INTO candles AS c (token_mint, payment_mint, resolution, bucket, open, high, low, close, volume, quote_volume, fills,
    open_slot, open_signature, open_ix_index, close_slot, close_signature, close_ix_index)
  SELECT token_mint, payment_mint, resolution, bucket, open, high, low, close, volume, quote_volume, fills,
    open_slot, open_signature, open_ix_index, close_slot, close_signature, close_ix_index
  FROM buckets
  ON CONFLICT (token_mint, payment_mint, resolution, bucket) DO UPDATE SET
    open = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open ELSE c.open END,
    open_slot = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open_slot ELSE c.open_slot END,
    open_signature = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open_signature ELSE c.open_signature END,
    open_ix_index = CASE WHEN (EXCLUDED.open_slot, EXCLUDED.open_signature, EXCLUDED.open_ix_index) < (c.open_slot, c.open_signature, c.open_ix_index)
      THEN EXCLUDED.open_ix_index ELSE c.open_ix_index END,
    close = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close ELSE c.close END,
    close_slot = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close_slot ELSE c.close_slot END,
    close_signature = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close_signature ELSE c.close_signature END,
    close_ix_index = CASE WHEN (EXCLUDED.close_slot, EXCLUDED.close_signature, EXCLUDED.close_ix_index) > (c.close_slot, c.close_signature, c.close_ix_index)
      THEN EXCLUDED.close_ix_index ELSE c.close_ix_index END,
    high = greatest(c.high, EXCLUDED.high),
    low = least(c.low, EXCLUDED.low),
    volume = c.volume + EXCLUDED.volume,
    quote_volume = c.quote_volume + EXCLUDED.quote_volume,
    fills = c.fills + EXCLUDED.fills;
END $$;
