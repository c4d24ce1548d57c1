import type postgres from "postgres";
import { eventFrame, type FeedEvent, type FeedEventKind, type FeedFilter } from "./events";
import { FEED_KEYS } from "../db/schema/feed";

// Reads of the feed's log (feed_events). Every read is one statement, so the
// page, the retention's watermark and the newest id are of one snapshot.

export const PAGE_SIZE = 500;

interface Row {
  id: string;
  kind: FeedEventKind;
  offer_pdas: string[];
  makers: string[];
  token_mints: string[];
  payment_mints: string[];
  payload: string;
}

const toEvent = (r: Row): FeedEvent => {
  const id = BigInt(r.id);
  return {
    id,
    kind: r.kind,
    offerPdas: r.offer_pdas,
    makers: r.makers,
    tokenMints: r.token_mints,
    paymentMints: r.payment_mints,
    frame: eventFrame(id, r.kind, r.payload),
  };
};

export interface FeedPage {
  events: FeedEvent[];
  /** Every id at or below it has been pruned. */
  prunedThrough: bigint;
  /** The newest id committed when the page was read (0 for an empty log). */
  newest: bigint;
}

/** The newest id committed now (0 for an empty log). */
export async function newestId(sql: postgres.Sql): Promise<bigint> {
  const [row] = await sql<{ id: string }[]>`select coalesce(max(id), 0)::text as id from feed_events`;
  return BigInt(row!.id);
}

/** Events after `after`, oldest first, every one (the hub filters them in memory). */
export async function readAfter(sql: postgres.Sql, after: bigint, limit = PAGE_SIZE): Promise<FeedEvent[]> {
  const rows = await sql<Row[]>`
    select id::text, kind, offer_pdas, makers, token_mints, payment_mints, payload
    from feed_events where id > ${after.toString()}::bigint order by feed_events.id limit ${limit}`;
  return rows.map(toEvent);
}

/** A page of the events matching `filter` after `after`, oldest first: a resuming stream's backlog. */
export async function readMatching(sql: postgres.Sql, after: bigint, filter: FeedFilter, limit = PAGE_SIZE): Promise<FeedPage> {
  const has = (column: string, value: string | undefined) => (value === undefined ? sql`` : sql`and ${sql(column)} @> array[${value}]::text[]`);
  // The values wanted, all in the event's keys: what feed_events_keys_idx answers (has() then checks each column).
  const wanted = [filter.tokenMint, filter.paymentMint, filter.maker, filter.offerPda].filter((v): v is string => v !== undefined);
  const keys = wanted.length === 0 ? sql`` : sql`and (${sql.unsafe(FEED_KEYS)}) @> ${wanted}::text[]`;
  const rows = await sql<(Row & { pruned_through: string; newest: string })[]>`
    select e.id::text, e.kind, e.offer_pdas, e.makers, e.token_mints, e.payment_mints, e.payload,
      r.pruned_through::text, n.newest
    from (select pruned_through from feed_retention where id = 1) r
    cross join (select coalesce(max(id), 0)::text as newest from feed_events) n
    left join lateral (
      select * from feed_events
      where id > ${after.toString()}::bigint and kind = any(${[...filter.types]}::text[])
        ${has("token_mints", filter.tokenMint)} ${has("payment_mints", filter.paymentMint)}
        ${has("makers", filter.maker)} ${has("offer_pdas", filter.offerPda)} ${keys}
      order by id limit ${limit}
    ) e on true
    order by e.id`;
  const first = rows[0];
  return {
    events: rows.filter((r) => r.id !== null).map(toEvent),
    prunedThrough: BigInt(first?.pruned_through ?? "0"),
    newest: BigInt(first?.newest ?? "0"),
  };
}
