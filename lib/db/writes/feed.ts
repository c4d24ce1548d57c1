import { CANDLE_EVENT_JSON } from "../reads/candles";
import { FILL_JSON } from "../reads/fills";
import { OFFER_JSON } from "../reads/offers";
import { recordset, type Writer } from "./writer";

// The live feed's log (feed_events, lib/db/schema/feed.ts): appended by the
// worker inside the transaction that makes the change, so an event exists
// exactly when its change is committed. Payloads are rendered here, in that
// transaction, with the very expressions the API serves rows with.

/** The advisory lock every appender takes before its ids: ids are then handed out in commit order. */
export const FEED_LOCK_KEY = 7_263_451_090;
/** The channel the worker notifies (payload: the newest id) and each web process listens on. */
export const FEED_CHANNEL = "feed_events";

/** One change of a batch, in chain order: a fill (by its key) or an offer's row after the batch. */
export type FeedChange =
  | { kind: "fill"; signature: string; ixIndex: number }
  /** `signature`: the transaction that changed the offer last, when one did (not for a lapse). */
  | { kind: "offer"; pda: string; signature?: string };

/** What a revoke says, and which offers it concerns (read before the undo deletes anything). */
export interface Revocation {
  signature: string;
  slot: bigint;
  offerPdas: string[];
  makers: string[];
  tokenMints: string[];
  paymentMints: string[];
}

async function takeFeedLock(tx: Writer): Promise<void> {
  await tx`select pg_advisory_xact_lock(${FEED_LOCK_KEY})`;
}

/** Tells the listening web processes, at commit, that the log grew. */
async function notifyNewest(tx: Writer, newest: string | undefined): Promise<void> {
  if (newest !== undefined) await tx`select pg_notify(${FEED_CHANNEL}, ${newest})`;
}

/**
 * Appends a batch's changes in the given order: each fill as /v1/fills serves
 * it, each offer's row as /v1/offers/:pda serves it now; then, after them, a
 * `candle` event per pair and minute the batch's fills fell in, with the
 * pair's candles as the fills' trigger has just left them. Changes whose row does
 * not exist (a take of an offer never indexed) are left out. Run it inside the
 * batch's transaction, after the batch's writes.
 */
export async function appendChanges(tx: Writer, changes: readonly FeedChange[]): Promise<number> {
  if (changes.length === 0) return 0;
  await takeFeedLock(tx);
  const rows = changes.map((c, ord) => (c.kind === "fill" ? { ord, kind: c.kind, signature: c.signature, ix: c.ixIndex } : { ord, kind: c.kind, pda: c.pda, signature: c.signature ?? null }));
  // Identity values are drawn as the sorted rows are inserted, so ids follow `ord`.
  // The changes are parsed once (a materialized CTE), not once per branch.
  const inserted = await tx<{ id: string }[]>`
    with c as materialized (
      select * from json_to_recordset(${recordset(rows)}::json) as c(ord int, kind text, signature text, ix int, pda text)
    ),
    changed_fills as materialized (
      select c.ord, o.* from c join fills o on c.kind = 'fill' and o.signature = c.signature and o.ix_index = c.ix
    )
    insert into feed_events (kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, payload)
    select kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, payload from (
      select o.ord, 'fill' as kind, o.signature, o.slot, array[o.offer_pda] as offer_pdas, array[o.maker] as makers,
        array[o.token_mint] as token_mints, array[o.payment_mint] as payment_mints, (${tx.unsafe(FILL_JSON)})::text as payload
      from changed_fills o
      union all
      select c.ord, 'offer', c.signature, o.last_slot, array[o.pda], array[o.maker],
        array[o.token_mint], array[o.payment_mint], (${tx.unsafe(OFFER_JSON)})::text
      from c join offers o on c.kind = 'offer' and o.pda = c.pda
      union all
      select ${changes.length} + m.n, 'candle', null, m.slot, '{}'::text[], '{}'::text[],
        array[m.token_mint], array[m.payment_mint], (${tx.unsafe(CANDLE_EVENT_JSON)})::text
      from (
        select o.token_mint, o.payment_mint, date_bin('1 minute', o.block_time, timestamptz '2000-01-01 00:00:00+00') as minute,
          max(o.slot) as slot, row_number() over (order by min(o.ord)) as n
        from changed_fills o
        group by 1, 2, 3
      ) m
      order by 1
    ) ordered
    returning id::text`;
  await notifyNewest(tx, inserted.at(-1)?.id);
  return inserted.length;
}

/** Offers' current rows as `offer` events (a lapse, a reconcile, the rows a rollback restored). */
export function appendOfferRows(tx: Writer, pdas: readonly string[], signature?: string): Promise<number> {
  return appendChanges(tx, [...new Set(pdas)].map((pda) => ({ kind: "offer" as const, pda, signature })));
}

/** What a revoke of `signature` must say and whom it concerns; null when it was never applied. Read before undoing it. */
export async function revocationOf(tx: Writer, signature: string): Promise<Revocation | null> {
  const [row] = await tx<{ slot: string; offer_pdas: string[]; makers: string[]; token_mints: string[]; payment_mints: string[] }[]>`
    select t.slot::text, t.offer_pdas,
      coalesce(array(select distinct maker from offers where pda = any(t.offer_pdas)), '{}') as makers,
      coalesce(array(select distinct token_mint from offers where pda = any(t.offer_pdas)), '{}') as token_mints,
      coalesce(array(select distinct payment_mint from offers where pda = any(t.offer_pdas)), '{}') as payment_mints
    from scanned_transactions t where t.signature = ${signature}`;
  if (!row) return null;
  return {
    signature,
    slot: BigInt(row.slot),
    offerPdas: row.offer_pdas,
    makers: row.makers,
    tokenMints: row.token_mints,
    paymentMints: row.payment_mints,
  };
}

/** Appends `revoke` events, one per undone transaction, in the order given. */
export async function appendRevocations(tx: Writer, revocations: readonly Revocation[]): Promise<number> {
  if (revocations.length === 0) return 0;
  await takeFeedLock(tx);
  const rows = revocations.map((r, ord) => ({
    ord,
    signature: r.signature,
    slot: r.slot.toString(),
    offer_pdas: r.offerPdas,
    makers: r.makers,
    token_mints: r.tokenMints,
    payment_mints: r.paymentMints,
  }));
  const inserted = await tx<{ id: string }[]>`
    insert into feed_events (kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, payload)
    select 'revoke', signature, slot, offer_pdas, makers, token_mints, payment_mints,
      json_build_object('signature', signature, 'slot', slot::text)::text
    from json_to_recordset(${recordset(rows)}::json)
      as r(ord int, signature text, slot bigint, offer_pdas text[], makers text[], token_mints text[], payment_mints text[])
    order by ord
    returning id::text`;
  await notifyNewest(tx, inserted.at(-1)?.id);
  return inserted.length;
}

/**
 * Deletes events older than `olderThan`, oldest first, at most `batch` of
 * them, and raises the watermark past them in the same transaction. Appends
 * are not blocked: they only add rows at the other end. Resolves to the number
 * deleted; call again while it returns `batch`.
 */
export async function pruneFeed(sql: Writer, olderThan: Date, batch = 1000): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    with edge as (
      select max(id) as id from (
        select id from feed_events where created_at < ${olderThan.toISOString()}::timestamptz order by id limit ${batch}
      ) due
    ),
    gone as (
      delete from feed_events where id <= (select id from edge) returning id
    ),
    mark as (
      update feed_retention set pruned_through = greatest(pruned_through, (select max(id) from gone))
      where id = 1 and exists (select 1 from gone)
    )
    select count(*)::int as n from gone`;
  return row?.n ?? 0;
}
