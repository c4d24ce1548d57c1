import type { Pending, Writer } from "./executor";

/** A take_offer as the worker decoded and priced it; maker, mints and side come from the offer row. */
export interface NewFill {
  signature: string;
  ixIndex: number;
  offerPda: string;
  taker: string;
  fillAmount: bigint;
  paymentAmount: bigint;
  feeAmount: bigint;
  blockTime: Date;
  slot: bigint;
}

export type FillOutcome = "recorded" | "duplicate" | "offer_missing";

/**
 * Records one fill and applies it to its offer in one statement: the fill row
 * is inserted once (keyed by signature and position), and only a newly
 * inserted fill lowers remaining_size (unless the row reflects an account read
 * at or after the fill), so a replay changes nothing. At zero remaining the
 * offer becomes filled. Aggregates follow by trigger.
 */
export function recordFill(sql: Writer, f: NewFill): Pending<{ outcome: FillOutcome }[]> {
  return sql<{ outcome: FillOutcome }[]>`
    with offer as (
      select pda, maker, token_mint, payment_mint, side from offers where pda = ${f.offerPda}
    ),
    inserted as (
      insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side,
        fill_amount, payment_amount, fee_amount, block_time, slot)
      select ${f.signature}, ${f.ixIndex}, pda, maker, ${f.taker}, token_mint, payment_mint, side,
        ${f.fillAmount.toString()}::numeric, ${f.paymentAmount.toString()}::numeric, ${f.feeAmount.toString()}::numeric,
        ${f.blockTime.toISOString()}::timestamptz, ${f.slot.toString()}::bigint
      from offer
      on conflict do nothing
      returning offer_pda, fill_amount, slot
    ),
    applied as (
      update offers o set
        remaining_size = o.remaining_size - i.fill_amount,
        state = case when o.state = 'active' and o.remaining_size = i.fill_amount then 'filled' else o.state end,
        ended_signature = case when o.state = 'active' and o.remaining_size = i.fill_amount then ${f.signature} else o.ended_signature end,
        last_slot = greatest(o.last_slot, i.slot)
      from inserted i
      where o.pda = i.offer_pda and (o.account_slot is null or o.account_slot < i.slot)
      returning o.pda
    )
    select case
      when exists (select 1 from inserted) then 'recorded'
      when exists (select 1 from offer) then 'duplicate'
      else 'offer_missing' end as outcome,
      (select count(*) from applied) as applied`;
}
