import type { Database } from "../db/client";
import { FEE_BPS } from "../program/constants";
import { pairDecimals, wholeUnits, type DecimalsOf, type Pair } from "./pair-units";

// The DEXTools HTTP adapter (dextools-io/integration-sdk,
// http-adapter/http-adapter-specification.yml; a copy in
// tests/fixtures/dextools/) over our index. A block is a slot in which the
// program has an indexed transaction (blockNumber = slot, blockTimestamp = its
// block time); a pair is a market, id TOKEN:PAYMENT (asset0 the offered token,
// asset1 the payment mint); an event is a fill, as a swap seen from the taker,
// who signs the take. The offer book holds no pool, so no join, exit or
// reserves are reported.

export const PAIR_SEPARATOR = ":";

export const dexPairId = (pair: Pair): string => `${pair.tokenMint}${PAIR_SEPARATOR}${pair.paymentMint}`;

/** The pair a DEXTools pair id names, or null when it is not two parts joined by ":". */
export function parseDexPairId(id: string): Pair | null {
  const parts = id.split(PAIR_SEPARATOR);
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  return { tokenMint: parts[0], paymentMint: parts[1] };
}

export interface DexBlock {
  blockNumber: number;
  blockTimestamp: number;
}

/**
 * The newest slot every event of which is served, null before there is one.
 * The scanner applies transactions oldest first in batches that may split a
 * slot, so the checkpoint's own slot may still be partly unapplied: only the
 * slots below it are whole. And a slot not yet finalized may still be undone
 * by a fork, which would take back events already served: only the slots
 * below the oldest unfinalized one count. The newest slot with activity is
 * therefore announced once a later slot's transaction has been indexed and
 * both are final.
 */
const HORIZON = `least(
  coalesce((select max(last_slot) from scanner_checkpoints), 0) - 1,
  coalesce((select slot from scanned_transactions where not finalized order by slot limit 1) - 1, 9223372036854775807)
)`;

// The columns are text (a slot may pass 2^53), so an ORDER BY names the table's slot: the bare name is
// the output column, and sorted the text (11 s at 5 M transactions, a sort of them all, and "99" after "100").
const BLOCK_COLUMNS = "slot::text as slot, extract(epoch from block_time)::bigint::text as ts";

const toBlock = (row: { slot: string; ts: string } | undefined): DexBlock | null =>
  row ? { blockNumber: Number(row.slot), blockTimestamp: Number(row.ts) } : null;

/** GET /v1/dextools/latest-block: the newest announced block, null while none is. */
export async function latestDexBlock(db: Database): Promise<DexBlock | null> {
  const [row] = await db.$client.unsafe(
    `select ${BLOCK_COLUMNS} from scanned_transactions
      where slot <= ${HORIZON} and block_time is not null order by scanned_transactions.slot desc limit 1`,
  );
  return toBlock(row as { slot: string; ts: string } | undefined);
}

/**
 * GET /v1/dextools/block: the announced block at slot `number`, or else the
 * newest announced block whose time is at or before `timestamp`; null when
 * there is none (a slot without program transactions is no block here).
 */
export async function findDexBlock(db: Database, q: { number: number } | { timestamp: number }): Promise<DexBlock | null> {
  const sql = db.$client;
  const [row] =
    "number" in q
      ? await sql.unsafe(
          `select ${BLOCK_COLUMNS} from scanned_transactions
            where slot = $1::bigint and slot <= ${HORIZON} and block_time is not null limit 1`,
          [q.number],
        )
      : await sql.unsafe(
          `select ${BLOCK_COLUMNS} from scanned_transactions
            where slot <= ${HORIZON} and block_time <= to_timestamp($1) order by scanned_transactions.slot desc limit 1`,
          [q.timestamp],
        );
  return toBlock(row as { slot: string; ts: string } | undefined);
}

export interface DexAsset {
  id: string;
  name?: string;
  symbol?: string;
}

/** Whether any offer of the index trades `mint`, as its token or as its payment. */
export async function mintIsTraded(db: Database, mint: string): Promise<boolean> {
  const [row] = await db.$client`select exists(select 1 from offers where token_mint = ${mint})
    or exists(select 1 from offers where payment_mint = ${mint}) as traded`;
  return Boolean(row?.traded);
}

export interface DexPair {
  id: string;
  asset0Id: string;
  asset1Id: string;
  createdAtBlockNumber: number;
  createdAtBlockTimestamp: number;
  createdAtTxnId: string;
  factoryAddress: string;
  feeBps: number;
}

/**
 * The statement of /v1/dextools/pair ($1 the token mint, $2 the payment
 * mint): the head of the pair's range of offers_pair_created_idx, so one
 * index probe however many offers the market has. Text, so a test can
 * EXPLAIN it.
 */
export const DEX_PAIR_STATEMENT = `
  select o.created_slot::text as slot, extract(epoch from o.created_at)::bigint::text as ts, o.created_signature as signature,
    (select program_id from chain_identity where id = 1) as program
  from offers o where o.token_mint = $1::text and o.payment_mint = $2::text and o.created_slot is not null
  order by o.created_slot, o.created_at limit 1`;

/**
 * GET /v1/dextools/pair: the market, created with its first offer (the
 * oldest indexed creation of an offer on the pair); the factory is the
 * offer-book program. Null when no offer was ever made on the pair.
 */
export async function readDexPair(db: Database, pair: Pair): Promise<DexPair | null> {
  const [row] = await db.$client.unsafe(DEX_PAIR_STATEMENT, [pair.tokenMint, pair.paymentMint]);
  if (!row) return null;
  return {
    id: dexPairId(pair),
    asset0Id: pair.tokenMint,
    asset1Id: pair.paymentMint,
    createdAtBlockNumber: Number(row.slot),
    createdAtBlockTimestamp: Number(row.ts),
    createdAtTxnId: row.signature ?? "",
    factoryAddress: row.program ?? "",
    feeBps: Number(FEE_BPS),
  };
}

export interface DexSwap {
  block: DexBlock;
  txnId: string;
  txnIndex: number;
  eventIndex: number;
  maker: string;
  pairId: string;
  eventType: "swap";
  asset0In?: string;
  asset1Out?: string;
  asset0Out?: string;
  asset1In?: string;
}

/** The most slots one /events request may span (about 11 hours of Solana slots). */
export const MAX_EVENT_SLOTS = 100_000;

/** The adapter's amounts always have a fractional part (its pattern is ^\d+(?:\.\d+)$). */
const dexAmount = (raw: string, decimals: number): string => {
  const whole = wholeUnits(raw, decimals);
  return whole.includes(".") ? whole : `${whole}.0`;
};

interface FillRow {
  slot: string;
  ts: string;
  signature: string;
  txn_index: number;
  event_index: number;
  taker: string;
  token_mint: string;
  payment_mint: string;
  side: "sell" | "buy";
  fill_amount: string;
  payment_amount: string;
  fee_amount: string;
}

/**
 * GET /v1/dextools/events: every fill in slots [fromBlock, toBlock] cut at
 * the announced horizon, as swaps, in slot order. The index does not record
 * a transaction's position in its block: txnIndex ranks the block's indexed
 * transactions by signature and eventIndex its fills by (signature,
 * position), so both are stable, unique in the block and in one order.
 * Amounts are whole tokens: a take of an ask (sell offer) is payment in and
 * token out; a take of a bid is token in and the payment less the fee out
 * (what the taker receives). A fill whose mint's decimals neither the
 * provider nor the chain knows cannot be stated in whole tokens and is left out.
 * The ORDER BY names the table's slot: the bare name is the output column,
 * the slot as text ("100" before "99").
 */
export async function listDexEvents(db: Database, range: { fromBlock: number; toBlock: number }, decimalsOf: DecimalsOf): Promise<DexSwap[]> {
  const rows = (await db.$client.unsafe(
    `select slot::text as slot, extract(epoch from block_time)::bigint::text as ts, signature,
        (dense_rank() over (partition by slot order by signature) - 1)::int as txn_index,
        (row_number() over (partition by slot order by signature, ix_index) - 1)::int as event_index,
        taker, token_mint, payment_mint, side::text as side, fill_amount::text, payment_amount::text, fee_amount::text
      from fills where slot >= $1::bigint and slot <= least($2::bigint, ${HORIZON})
      order by fills.slot, signature, ix_index`,
    [range.fromBlock, range.toBlock],
  )) as unknown as FillRow[];
  const decimals = await decimalsOf([...new Set(rows.flatMap((r) => [r.token_mint, r.payment_mint]))]);
  return rows.flatMap((r): DexSwap[] => {
    const pair = { tokenMint: r.token_mint, paymentMint: r.payment_mint };
    const d = pairDecimals(decimals, pair);
    if (!d) return [];
    const token = dexAmount(r.fill_amount, d.token);
    const amounts =
      r.side === "sell"
        ? { asset0Out: token, asset1In: dexAmount(r.payment_amount, d.payment) }
        : { asset0In: token, asset1Out: dexAmount((BigInt(r.payment_amount) - BigInt(r.fee_amount)).toString(), d.payment) };
    return [
      {
        block: { blockNumber: Number(r.slot), blockTimestamp: Number(r.ts) },
        txnId: r.signature,
        txnIndex: r.txn_index,
        eventIndex: r.event_index,
        maker: r.taker,
        pairId: dexPairId(pair),
        eventType: "swap",
        ...amounts,
      },
    ];
  });
}
