import type { Pending, Writer } from "./executor";

export type OfferSide = "sell" | "buy";
export type OfferState = "active" | "filled" | "cancelled" | "expired";
export type TerminalState = "cancelled" | "expired";

/** An offer as create_offer (or, before the scanned history, its account) describes it. */
export interface NewOffer {
  pda: string;
  maker: string;
  tokenMint: string;
  paymentMint: string;
  side: OfferSide;
  nonce: bigint;
  originalSize: bigint;
  remainingSize: bigint;
  pricePerToken: bigint;
  priceScale: number;
  minFill: bigint;
  createdAt: Date;
  expiresAt: Date;
  state?: OfferState;
  createdSignature?: string | null;
  createdSlot?: bigint | null;
  /** Set when the row comes from an account read at this slot. */
  accountSlot?: bigint | null;
  lastSlot: bigint;
}

const text = (v: bigint | null | undefined) => (v == null ? null : v.toString());

/** Records an offer; a second write of the same pda changes nothing. Resolves to the inserted pda, if new. */
export function insertOffer(sql: Writer, o: NewOffer): Pending<{ pda: string }[]> {
  return sql<{ pda: string }[]>`
    insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size,
      price_per_token, price_scale, min_fill, created_at, expires_at, state, created_signature, created_slot,
      account_slot, last_slot)
    values (${o.pda}, ${o.maker}, ${o.tokenMint}, ${o.paymentMint}, ${o.side}::offer_side, ${o.nonce.toString()}::numeric,
      ${o.originalSize.toString()}::numeric, ${o.remainingSize.toString()}::numeric, ${o.pricePerToken.toString()}::numeric,
      ${o.priceScale}, ${o.minFill.toString()}::numeric, ${o.createdAt.toISOString()}::timestamptz,
      ${o.expiresAt.toISOString()}::timestamptz, ${o.state ?? "active"}::offer_state, ${o.createdSignature ?? null},
      ${text(o.createdSlot)}::bigint, ${text(o.accountSlot)}::bigint, ${o.lastSlot.toString()}::bigint)
    on conflict (pda) do nothing
    returning pda`;
}

/**
 * cancel_offer / expire_offer: an active offer ends. Idempotent: an offer that
 * already left the active state, or whose row reflects a later account read,
 * is left as it is.
 */
export function endOffer(sql: Writer, pda: string, state: TerminalState, slot: bigint, signature: string | null = null) {
  return sql<{ pda: string }[]>`
    update offers set state = ${state}::offer_state, ended_signature = ${signature},
      last_slot = greatest(last_slot, ${slot.toString()}::bigint)
    where pda = ${pda} and state = 'active' and (account_slot is null or account_slot < ${slot.toString()}::bigint)
    returning pda`;
}

/** close_offer: the account is deleted; the row stays as history. */
export function closeOffer(sql: Writer, pda: string, closedAt: Date, slot: bigint, signature: string | null = null) {
  return sql<{ pda: string }[]>`
    update offers set closed_at = ${closedAt.toISOString()}::timestamptz, closed_signature = ${signature},
      last_slot = greatest(last_slot, ${slot.toString()}::bigint)
    where pda = ${pda} and closed_at is null
    returning pda`;
}

export interface AccountSnapshot {
  remainingSize: bigint;
  state: OfferState;
  slot: bigint;
}

/** Brings a row to what the offer's account said at `slot`, unless the row already reflects a later read. */
export function applyAccountSnapshot(sql: Writer, pda: string, s: AccountSnapshot) {
  return sql<{ pda: string }[]>`
    update offers set remaining_size = ${s.remainingSize.toString()}::numeric, state = ${s.state}::offer_state,
      account_slot = ${s.slot.toString()}::bigint, last_slot = greatest(last_slot, ${s.slot.toString()}::bigint)
    where pda = ${pda} and (account_slot is null or account_slot < ${s.slot.toString()}::bigint)
    returning pda`;
}

/** Offers were seen (their accounts read) at `slot`. */
export function touchOffers(sql: Writer, pdas: string[], slot: bigint) {
  return sql`update offers set last_slot = greatest(last_slot, ${slot.toString()}::bigint) where pda = any(${pdas}::text[])`;
}

export interface OfferTerms {
  pda: string;
  pricePerToken: bigint;
  priceScale: number;
}

/** The price terms of known offers, for pricing their takes. */
export async function offerTerms(sql: Writer, pdas: string[]): Promise<Map<string, OfferTerms>> {
  if (pdas.length === 0) return new Map();
  const rows = await sql<{ pda: string; price: string; scale: number }[]>`
    select pda, price_per_token::text as price, price_scale as scale from offers where pda = any(${pdas}::text[])`;
  return new Map(rows.map((r) => [r.pda, { pda: r.pda, pricePerToken: BigInt(r.price), priceScale: r.scale }]));
}

/**
 * Flags active offers already past their expiry as lapsed, at most `batch` per
 * call (the oldest expiries first; rows another transaction holds are left for
 * the next run). The offers_lapse_due_idx partial index holds exactly the rows
 * still to flag, so a run touches only offers that lapsed since the last one.
 * Reads are exact whether or not this has run; it keeps the live part of their
 * lapsed counts and listings small. Resolves to the number of offers flagged.
 */
export async function markLapsedOffers(sql: Writer, batch = 1000): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    with due as (
      select pda from offers
      where state = 'active' and not lapsed and expires_at <= now()
      order by expires_at limit ${batch}
      for update skip locked
    ),
    flagged as (
      update offers o set lapsed = true from due
      where o.pda = due.pda and o.state = 'active' and not o.lapsed and o.expires_at <= now()
      returning 1
    )
    select count(*)::int as n from flagged`;
  return row?.n ?? 0;
}
