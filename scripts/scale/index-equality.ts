import postgres from "postgres";
import { FILL_JSON } from "../../lib/db/reads/fills";

// Two indexes of the same chain compared table by table: the scale
// topology's (after its leader worker was SIGKILLed and the standby took
// over) against a clean run's (one worker, a fresh database, the same
// cluster). Nothing lost or counted twice shows as equal tables.
//
// Left out, because two runs of the same chain legitimately set them apart:
// - the lapse flag (offers.lapsed, the lapsed_offers counters) and what
//   hangs on it: a sweep sets it by the wall clock, not the chain, so two
//   workers flag an expired offer at different moments. open_book is compared
//   with the lapsed offers' share added back (every active offer's), which
//   is the same in both runs and still shows an offer counted twice;
// - offers.last_slot and account_slot (account reads by the reconcile job
//   raise them, at times of each worker's own), indexed_at, the checkpoint's
//   updated_at, scanned_transactions.finalized (settled by a timer);
// - the feed's ids (a killed leader's uncommitted batch used some up: ids
//   may skip, readers ask for id > last and never notice) and its offer and
//   candle events, whose number follows where the batches happened to end.
//   What the feed must hold in both is compared instead: one fill event per
//   fill, as /v1/fills renders it, in chain order, none missing, none twice,
//   and no transaction's offer event twice.

const TABLES: Record<string, string> = {
  offers: `select pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
    min_fill, created_at, expires_at, state, closed_at, created_signature, ended_signature, closed_signature, created_slot from offers t`,
  fills: `select * from fills t`,
  candles: `select * from candles t`,
  maker_activity: `select * from maker_activity t`,
  offer_first_fills: `select * from offer_first_fills t`,
  protocol_stats: `select id, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers, total_fills from protocol_stats t`,
  protocol_mint_stats: `select * from protocol_mint_stats t`,
  maker_stats: `select maker, total_offers, active_offers, filled_offers, cancelled_offers, expired_offers from maker_stats t`,
  maker_volume: `select * from maker_volume t`,
  open_book: `select token_mint, payment_mint, side, sum(offers) as offers, sum(value) as value from (
      select token_mint, payment_mint, side, offers, value from open_book
      union all
      select token_mint, payment_mint, side, count(*), sum(remaining_size * price) from offers where state = 'active' and lapsed group by 1, 2, 3
    ) t group by 1, 2, 3 having sum(offers) <> 0`,
  fill_slot_bounds: `select * from fill_slot_bounds t`,
  scanned_transactions: `select signature, slot, block_time, failed, offer_pdas from scanned_transactions t`,
  scanner_checkpoints: `select program_id, last_signature, last_slot from scanner_checkpoints t`,
};

export interface IndexComparison {
  equal: boolean;
  /** One line per difference, naming the table and a row of each side ("none" when equal). */
  differences: string[];
  /** Tables compared (the feed besides). */
  tables: number;
  /** Rows compared, on the topology's side. */
  rows: number;
  fills: number;
}

async function rowsOf(sql: postgres.Sql, query: string): Promise<string[]> {
  const rows = await sql.unsafe<{ row: string }[]>(`select row_to_json(t)::text as row from (${query}) t`);
  return rows.map((r) => r.row).sort();
}

/** A row of each side that differs, as the fields that differ when both name the same first field (the key). */
function describeRows(a: string | undefined, b: string | undefined): string {
  if (a && b) {
    const [ra, rb] = [JSON.parse(a) as Record<string, unknown>, JSON.parse(b) as Record<string, unknown>];
    const key = Object.keys(ra)[0]!;
    if (JSON.stringify(ra[key]) === JSON.stringify(rb[key])) {
      const fields = Object.keys(ra).filter((f) => JSON.stringify(ra[f]) !== JSON.stringify(rb[f]));
      return `; ${key} ${JSON.stringify(ra[key])}: ${fields.map((f) => `${f} ${JSON.stringify(ra[f])} (clean: ${JSON.stringify(rb[f])})`).join(", ")}`;
    }
  }
  return `${a ? `; topology: ${a.slice(0, 300)}` : ""}${b ? `; clean: ${b.slice(0, 300)}` : ""}`;
}

/** Rows on one side and not the other (as multisets): a row twice on one side counts. */
function tableDifference(name: string, a: string[], b: string[]): string | null {
  const count = new Map<string, number>();
  for (const row of a) count.set(row, (count.get(row) ?? 0) + 1);
  for (const row of b) count.set(row, (count.get(row) ?? 0) - 1);
  const onlyA = [...count].filter(([, n]) => n > 0).map(([row]) => row);
  const onlyB = [...count].filter(([, n]) => n < 0).map(([row]) => row);
  if (onlyA.length === 0 && onlyB.length === 0) return null;
  return `${name}: ${onlyA.length} row(s) only in the topology's index, ${onlyB.length} only in the clean run's (${a.length} vs ${b.length})${describeRows(onlyA[0], onlyB[0])}`;
}

interface FeedFacts {
  /** The fill events' payloads in id order. */
  fillEvents: string[];
  /** Fills with no event, and fill events beyond one per fill. */
  missing: number;
  doubled: number;
  /** (transaction, offer) pairs with more than one offer event: a batch applied twice. */
  offerEventsTwice: number;
}

async function feedFacts(sql: postgres.Sql): Promise<FeedFacts> {
  const fillEvents = (await sql<{ payload: string }[]>`select payload from feed_events where kind = 'fill' order by id`).map((r) => r.payload);
  const rendered = (await sql.unsafe<{ payload: string }[]>(`select (${FILL_JSON})::text as payload from fills o`)).map((r) => r.payload);
  const events = new Map<string, number>();
  for (const p of fillEvents) events.set(p, (events.get(p) ?? 0) + 1);
  const fills = new Set(rendered);
  const missing = rendered.filter((p) => !events.has(p)).length;
  const doubled = [...events.values()].reduce((sum, n) => sum + n - 1, 0) + [...events.keys()].filter((p) => !fills.has(p)).length;
  const [twice] = await sql<{ n: number }[]>`select count(*)::int as n from (
    select signature, offer_pdas from feed_events where kind = 'offer' and signature is not null group by 1, 2 having count(*) > 1) d`;
  return { fillEvents, missing, doubled, offerEventsTwice: twice!.n };
}

/** Compares the index at `topologyUrl` with the clean run's at `cleanUrl`; both at rest (their chain paused, caught up). */
export async function compareIndexes(topologyUrl: string, cleanUrl: string): Promise<IndexComparison> {
  const [a, b] = [topologyUrl, cleanUrl].map((url) => postgres(url, { max: 1, onnotice: () => {}, fetch_types: false }));
  try {
    const differences: string[] = [];
    let rows = 0;
    for (const [name, query] of Object.entries(TABLES)) {
      const [mine, clean] = [await rowsOf(a!, query), await rowsOf(b!, query)];
      rows += mine.length;
      const difference = tableDifference(name, mine, clean);
      if (difference) differences.push(difference);
    }
    const [feedA, feedB] = [await feedFacts(a!), await feedFacts(b!)];
    for (const [side, feed] of [["topology", feedA], ["clean run", feedB]] as const) {
      if (feed.missing || feed.doubled) differences.push(`feed (${side}): ${feed.missing} fill(s) without their event, ${feed.doubled} fill event(s) beyond one per fill`);
      if (feed.offerEventsTwice) differences.push(`feed (${side}): ${feed.offerEventsTwice} transaction(s) with an offer's event twice`);
    }
    const firstApart = feedA.fillEvents.findIndex((p, i) => p !== feedB.fillEvents[i]);
    if (firstApart >= 0 || feedA.fillEvents.length !== feedB.fillEvents.length) {
      differences.push(`feed: the fill events differ from the clean run's from the ${(firstApart >= 0 ? firstApart : Math.min(feedA.fillEvents.length, feedB.fillEvents.length)) + 1}th on (${feedA.fillEvents.length} vs ${feedB.fillEvents.length})`);
    }
    return { equal: differences.length === 0, differences, tables: Object.keys(TABLES).length, rows, fills: feedA.fillEvents.length };
  } finally {
    await Promise.all([a!.end({ timeout: 2 }), b!.end({ timeout: 2 })]);
  }
}
