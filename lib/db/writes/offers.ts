import type { OfferSide, OfferState } from "../../program/offer-account";
import { offers } from "../schema/offers";
import { appendOfferRows } from "./feed";
import { inTransaction, recordset, recordsetColumns, type ColumnValues, type Pending, type Writer } from "./writer";

export type { OfferSide, OfferState };
export type TerminalState = "cancelled" | "expired";

/**
 * The columns an offer is created with, from create_offer (or, before the
 * scanned history, from its account); later instructions, the lapse job and
 * defaults set the others.
 */
export const OFFER_INSERT = recordsetColumns(offers, [
  "pda",
  "maker",
  "tokenMint",
  "paymentMint",
  "side",
  "nonce",
  "originalSize",
  "remainingSize",
  "pricePerToken",
  "priceScale",
  "minFill",
  "createdAt",
  "expiresAt",
  "state",
  "createdSignature",
  "createdSlot",
  "accountSlot",
  "lastSlot",
]);

/** An offer as create_offer (or, before the scanned history, its account) describes it; see lib/db/schema/offers.ts. */
export type NewOffer = ColumnValues<typeof offers, (typeof OFFER_INSERT.keys)[number]>;

/**
 * Records offers in one statement; a second write of the same pda, in this
 * call (the first counts) or an earlier one, changes nothing, but for one
 * thing: a row read from its account ahead of the scan (the reconcile job
 * reads accounts at the newest slot) has no creating transaction, and takes
 * the one create_offer gives when the scan reaches it, so that a rollback of
 * that transaction still removes the offer. Resolves to the pdas inserted or
 * given their creating transaction.
 */
export function insertOffers(sql: Writer, rows: readonly NewOffer[]): Pending<{ pda: string }[]> {
  const firsts = new Map<string, NewOffer>();
  for (const o of rows) if (!firsts.has(o.pda)) firsts.set(o.pda, o);
  const records = [...firsts.values()].map((o) => OFFER_INSERT.row({ ...o, state: o.state ?? "active" }));
  return sql<{ pda: string }[]>`
    insert into offers (${sql.unsafe(OFFER_INSERT.names)})
    select ${sql.unsafe(OFFER_INSERT.names)}
    from json_to_recordset(${recordset(records)}::json) as r(${sql.unsafe(OFFER_INSERT.definition)})
    on conflict (pda) do update set created_signature = excluded.created_signature, created_slot = excluded.created_slot
      where offers.created_signature is null and excluded.created_signature is not null
    returning pda`;
}

/** Records an offer; a second write of the same pda changes nothing. Resolves to the inserted pda, if new. */
export function insertOffer(sql: Writer, o: NewOffer): Pending<{ pda: string }[]> {
  return insertOffers(sql, [o]);
}

/** cancel_offer or expire_offer, in the transaction `signature` at `slot`. */
export interface OfferEnd {
  pda: string;
  state: TerminalState;
  slot: bigint;
  signature: string | null;
}

/** close_offer, in the transaction `signature` at `slot`. */
export interface OfferClose {
  pda: string;
  closedAt: Date;
  slot: bigint;
  signature: string | null;
}

// OFFER_KEYS_NOTE: endOffers, closeOffers and recordFills (./fills.ts) name
// their offers twice, joined to their recordset and as `o.pda = any(pdas)`.
// The planner takes a recordset for 100 rows and an offers table of fewer
// than some 40,000 rows (or the 10 it guesses for a state or closed_at it has
// no statistics of yet, as in a backfill into a fresh database) as cheaper to
// read whole than to probe 100 times; the array leads it to the primary key
// at any size. The results are the same rows. endOffers compares the state
// as text: as an enum it led the planner to offers_state_created_idx, every
// active offer, which it guesses at 10 rows before any statistics.

/**
 * cancel_offer / expire_offer, many at once: an active offer ends. Idempotent:
 * an offer that already left the active state, or whose row reflects a later
 * account read, is left as it is; of two ends of one offer, the first counts.
 */
export function endOffers(sql: Writer, ends: readonly OfferEnd[]) {
  const rows = ends.map((e, position) => ({ pda: e.pda, state: e.state, slot: e.slot.toString(), signature: e.signature, position }));
  const pdas = [...new Set(ends.map((e) => e.pda))];
  return sql<{ pda: string }[]>`
    update offers o set state = e.state, ended_signature = e.signature, last_slot = greatest(o.last_slot, e.slot)
    from (
      select distinct on (pda) pda, state, slot, signature
      from json_to_recordset(${recordset(rows)}::json)
        as e(pda text, state offer_state, slot bigint, signature text, position integer)
      order by pda, position
    ) e
    where o.pda = e.pda and o.pda = any(${pdas}::text[]) and o.state::text = 'active' and (o.account_slot is null or o.account_slot < e.slot)
    returning o.pda`;
}

export function endOffer(sql: Writer, pda: string, state: TerminalState, slot: bigint, signature: string | null = null) {
  return endOffers(sql, [{ pda, state, slot, signature }]);
}

/** close_offer, many at once: the account is deleted; the row stays as history. The first close counts. */
export function closeOffers(sql: Writer, closes: readonly OfferClose[]) {
  const rows = closes.map((c, position) => ({
    pda: c.pda,
    closed_at: c.closedAt.toISOString(),
    slot: c.slot.toString(),
    signature: c.signature,
    position,
  }));
  const pdas = [...new Set(closes.map((c) => c.pda))];
  return sql<{ pda: string }[]>`
    update offers o set closed_at = c.closed_at, closed_signature = c.signature, last_slot = greatest(o.last_slot, c.slot)
    from (
      select distinct on (pda) pda, closed_at, slot, signature
      from json_to_recordset(${recordset(rows)}::json)
        as c(pda text, closed_at timestamptz, slot bigint, signature text, position integer)
      order by pda, position
    ) c
    where o.pda = c.pda and o.pda = any(${pdas}::text[]) and o.closed_at is null
    returning o.pda`;
}

export function closeOffer(sql: Writer, pda: string, closedAt: Date, slot: bigint, signature: string | null = null) {
  return closeOffers(sql, [{ pda, closedAt, slot, signature }]);
}

export interface AccountSnapshot {
  remainingSize: bigint;
  state: OfferState;
  slot: bigint;
}

/**
 * Brings a row to what the offer's account said at `slot`, unless the row
 * already reflects a later read; with `replace`, whatever the row's read (that
 * read saw a fork the cluster dropped).
 */
export function applyAccountSnapshot(sql: Writer, pda: string, s: AccountSnapshot, { replace = false } = {}) {
  return sql<{ pda: string }[]>`
    update offers set remaining_size = ${s.remainingSize.toString()}::numeric, state = ${s.state}::offer_state,
      account_slot = ${s.slot.toString()}::bigint, last_slot = greatest(last_slot, ${s.slot.toString()}::bigint)
    where pda = ${pda} and (${replace} or account_slot is null or account_slot < ${s.slot.toString()}::bigint)
    returning pda`;
}

/**
 * Offers whose account was read at or after the slot of one of these
 * transactions: the read may include what they did, which undoing them cannot
 * give back (the scan skipped the fills that read already held).
 */
export async function offersReadSince(sql: Writer, signatures: readonly string[]): Promise<string[]> {
  const rows = await sql<{ pda: string }[]>`
    select distinct o.pda from scanned_transactions t
    join offers o on o.pda = any(t.offer_pdas)
    where t.signature = any(${signatures as string[]}::text[]) and o.account_slot >= t.slot`;
  return rows.map((r) => r.pda);
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
export function markLapsedOffers(sql: Writer, batch = 1000): Promise<number> {
  return inTransaction(sql, async (tx) => {
    const flagged = await tx<{ pda: string }[]>`
    with due as (
      select pda from offers
      where state = 'active' and not lapsed and expires_at <= now()
      order by expires_at limit ${batch}
      for update skip locked
    )
    update offers o set lapsed = true from due
    where o.pda = due.pda and o.state = 'active' and not o.lapsed and o.expires_at <= now()
    returning o.pda`;
    // An open offer passing its expiry is news to the live feed: its row, now "expired".
    await appendOfferRows(tx, flagged.map((r) => r.pda));
    return flagged.length;
  });
}
