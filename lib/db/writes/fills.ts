import { fills } from "../schema/fills";
import { recordset, recordsetColumns, type ColumnValues, type Pending, type Writer } from "./writer";

/** The columns a fill takes from the take_offer the worker decoded and priced; recordFills copies the others from its offer. */
export const FILL_INSERT = recordsetColumns(fills, [
  "signature",
  "ixIndex",
  "offerPda",
  "taker",
  "fillAmount",
  "paymentAmount",
  "feeAmount",
  "blockTime",
  "slot",
]);

/** A take_offer as the worker decoded and priced it; maker, mints and side come from the offer row. */
export type NewFill = ColumnValues<typeof fills, (typeof FILL_INSERT.keys)[number]>;

export type FillOutcome = "recorded" | "duplicate" | "offer_missing";

/**
 * Records fills and applies them to their offers in one statement. A fill
 * row is inserted once (keyed by signature and position), and only newly
 * inserted fills lower an offer's remaining_size (and only those after the
 * account read the row reflects, if any), so a replay changes nothing. An
 * offer that reaches zero becomes filled, ended by the last of its fills in
 * the order given (the order of the chain). Aggregates follow by trigger.
 * Resolves to each fill's outcome, in the order given.
 */
export function recordFills(sql: Writer, newFills: readonly NewFill[]): Pending<{ outcome: FillOutcome }[]> {
  const rows = newFills.map((f, position) => FILL_INSERT.row(f, { position }));
  // The offers as an array too (`o.pda = any(pdas)`): the recordset's 100 rows
  // as the planner guesses them weigh less than a hash of the whole offers
  // table until it holds some 40,000 rows, so without it a backfill's batches
  // read every offer twice (see OFFER_KEYS_NOTE in ./offers.ts).
  const pdas = [...new Set(newFills.map((f) => f.offerPda))];
  return sql<{ outcome: FillOutcome }[]>`
    with input as (
      select distinct on (signature, ix_index) *
      from json_to_recordset(${recordset(rows)}::json) as i(position integer, ${sql.unsafe(FILL_INSERT.definition)})
      order by signature, ix_index, position
    ),
    inserted as (
      insert into fills (${sql.unsafe(FILL_INSERT.names)}, maker, token_mint, payment_mint, side)
      select ${sql.unsafe(FILL_INSERT.of("i"))}, o.maker, o.token_mint, o.payment_mint, o.side
      from input i join offers o on o.pda = i.offer_pda and o.pda = any(${pdas}::text[])
      order by i.position
      on conflict do nothing
      returning signature, ix_index
    ),
    taken as (
      select i.offer_pda, sum(i.fill_amount) as amount, max(i.slot) as slot,
        (array_agg(i.signature order by i.position desc))[1] as last_signature
      from input i
      join inserted n on n.signature = i.signature and n.ix_index = i.ix_index
      join offers o on o.pda = i.offer_pda
      where o.account_slot is null or o.account_slot < i.slot
      group by i.offer_pda
    ),
    applied as (
      update offers o set
        remaining_size = o.remaining_size - t.amount,
        state = case when o.state = 'active' and o.remaining_size = t.amount then 'filled' else o.state end,
        ended_signature = case when o.state = 'active' and o.remaining_size = t.amount then t.last_signature else o.ended_signature end,
        last_slot = greatest(o.last_slot, t.slot)
      from taken t
      where o.pda = t.offer_pda
    )
    select case
      when n.signature is not null then 'recorded'
      when o.pda is not null then 'duplicate'
      else 'offer_missing' end as outcome
    from input i
    left join inserted n on n.signature = i.signature and n.ix_index = i.ix_index
    left join offers o on o.pda = i.offer_pda and o.pda = any(${pdas}::text[])
    order by i.position`;
}

/** Records one fill and applies it to its offer (see recordFills). */
export function recordFill(sql: Writer, f: NewFill): Pending<{ outcome: FillOutcome }[]> {
  return recordFills(sql, [f]);
}
