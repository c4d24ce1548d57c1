// SQL that turns rows into the contract's JSON inside PostgreSQL: amounts and
// slots as text (exact decimal strings), times as ISO 8601 UTC with
// milliseconds as JavaScript's toISOString writes them, keys in contract
// order. Each *_JSON is a json expression over a row aliased `o`; row_to_json
// over a projection writes compact JSON, unlike json_build_object.

export const isoUtc = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const asJson = (projection: string) => `(select row_to_json(x) from (select ${projection}) x)`;

/** The API status: the on-chain state, with an active offer past its expiry shown as expired. */
export const OFFER_STATUS = `(case o.state
  when 'active' then case when o.expires_at > now() then 'open' else 'expired' end
  when 'filled' then 'filled'
  when 'cancelled' then 'cancelled'
  else 'expired' end)`;

export const OFFER_JSON = asJson(`
  o.pda as "pda",
  o.maker as "maker",
  o.token_mint as "tokenMint",
  o.payment_mint as "paymentMint",
  o.side as "side",
  o.nonce::text as "nonce",
  o.original_size::text as "originalSize",
  o.remaining_size::text as "remainingSize",
  o.price_per_token::text as "pricePerToken",
  o.price_scale as "priceScale",
  o.min_fill::text as "minFill",
  ${isoUtc("o.created_at")} as "createdAt",
  ${isoUtc("o.expires_at")} as "expiresAt",
  ${OFFER_STATUS} as "status",
  o.last_slot::text as "lastSlot",
  ${isoUtc("o.indexed_at")} as "indexedAt"`);

/** A row of the global feed (/v1/fills), with the extensions ixIndex and maker. */
export const FILL_JSON = asJson(`
  o.signature as "signature",
  o.ix_index as "ixIndex",
  o.offer_pda as "offerPda",
  o.maker as "maker",
  o.taker as "taker",
  o.fill_amount::text as "fillAmount",
  o.payment_amount::text as "paymentAmount",
  o.fee_amount::text as "feeAmount",
  ${isoUtc("o.block_time")} as "blockTime",
  o.slot::text as "slot",
  o.token_mint as "tokenMint",
  o.payment_mint as "paymentMint",
  o.side as "side"`);

/** A row of one offer's history (/v1/offers/:pda/fills): the contract's seven fields and ixIndex. */
export const OFFER_FILL_JSON = asJson(`
  o.signature as "signature",
  o.ix_index as "ixIndex",
  o.taker as "taker",
  o.fill_amount::text as "fillAmount",
  o.payment_amount::text as "paymentAmount",
  o.fee_amount::text as "feeAmount",
  ${isoUtc("o.block_time")} as "blockTime",
  o.slot::text as "slot"`);
