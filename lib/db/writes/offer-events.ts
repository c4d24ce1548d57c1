import { FILL_INSERT, type NewFill } from "./fills";
import type { OfferClose, OfferEnd } from "./offers";
import { recordset, type Pending, type Writer } from "./writer";

export interface OfferEvents {
  fills: readonly NewFill[];
  ends: readonly OfferEnd[];
  closes: readonly OfferClose[];
}

/**
 * A batch's takes, ends and closes in one statement: the fills are inserted
 * and every offer they, the ends and the closes touch is updated once, as
 * recordFills, endOffers and closeOffers run one after the other would leave
 * it (each keeps its own rule: only newly inserted fills after the row's
 * account read lower an offer, and one reaching zero is filled by the last
 * of them; an end applies to an offer still active after the fills, unless a
 * later account read is in the row, and the first end counts; the first close
 * of an open row counts). One new version of each offer a batch touches,
 * rather than one per kind, and one firing of each statement trigger.
 */
export function applyOfferEvents(sql: Writer, events: OfferEvents): Pending {
  const fills = events.fills.map((f, position) => ({ position, ...FILL_INSERT.row(f) }));
  const ends = events.ends.map((e, position) => ({ pda: e.pda, state: e.state, slot: e.slot.toString(), signature: e.signature, position }));
  const closes = events.closes.map((c, position) => ({
    pda: c.pda,
    closed_at: c.closedAt.toISOString(),
    slot: c.slot.toString(),
    signature: c.signature,
    position,
  }));
  return sql`
    with input as (
      select distinct on (signature, ix_index) *
      from json_to_recordset(${recordset(fills)}::json) as i(position integer, ${sql.unsafe(FILL_INSERT.definition)})
      order by signature, ix_index, position
    ),
    inserted as (
      insert into fills (${sql.unsafe(FILL_INSERT.names)}, maker, token_mint, payment_mint, side)
      select ${sql.unsafe(FILL_INSERT.of("i"))}, o.maker, o.token_mint, o.payment_mint, o.side
      from input i join offers o on o.pda = i.offer_pda
      order by i.position
      on conflict do nothing
      returning signature, ix_index
    ),
    taken as (
      select i.offer_pda as pda, sum(i.fill_amount) as amount, max(i.slot) as slot,
        (array_agg(i.signature order by i.position desc))[1] as last_signature
      from input i
      join inserted n on n.signature = i.signature and n.ix_index = i.ix_index
      join offers o on o.pda = i.offer_pda
      where o.account_slot is null or o.account_slot < i.slot
      group by i.offer_pda
    ),
    ended as (
      select distinct on (pda) pda, state, slot, signature
      from json_to_recordset(${recordset(ends)}::json)
        as e(pda text, state offer_state, slot bigint, signature text, position integer)
      order by pda, position
    ),
    closed as (
      select distinct on (pda) pda, closed_at, slot, signature
      from json_to_recordset(${recordset(closes)}::json)
        as c(pda text, closed_at timestamptz, slot bigint, signature text, position integer)
      order by pda, position
    ),
    change as (
      select o.pda, t.amount, t.slot as fill_slot, t.last_signature,
        o.state = 'active' and o.remaining_size = t.amount as fills_end,
        e.pda is not null and o.state = 'active' and o.remaining_size is distinct from t.amount
          and (o.account_slot is null or o.account_slot < e.slot) as end_applies,
        e.state as end_state, e.slot as end_slot, e.signature as end_signature,
        c.pda is not null and o.closed_at is null as close_applies,
        c.closed_at, c.slot as close_slot, c.signature as close_signature
      from (select pda from taken union select pda from ended union select pda from closed) x
      join offers o on o.pda = x.pda
      left join taken t on t.pda = x.pda
      left join ended e on e.pda = x.pda
      left join closed c on c.pda = x.pda
    )
    update offers o set
      remaining_size = o.remaining_size - coalesce(ch.amount, 0),
      state = case when ch.fills_end then 'filled' when ch.end_applies then ch.end_state else o.state end,
      ended_signature = case when ch.fills_end then ch.last_signature when ch.end_applies then ch.end_signature else o.ended_signature end,
      closed_at = case when ch.close_applies then ch.closed_at else o.closed_at end,
      closed_signature = case when ch.close_applies then ch.close_signature else o.closed_signature end,
      last_slot = greatest(o.last_slot, ch.fill_slot, case when ch.end_applies then ch.end_slot end, case when ch.close_applies then ch.close_slot end)
    from change ch
    where o.pda = ch.pda and (ch.amount is not null or ch.end_applies or ch.close_applies)`;
}
