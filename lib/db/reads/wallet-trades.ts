import type { Database } from "../client";
import { decodeFillCursor, encodeFillCursor } from "./cursor";
import { csvHeader, csvLine, csvLines } from "./csv";
import { field, jsonObject } from "./fields";
import { FILL_FEED_ORDER, FILL_FIELDS } from "./fills";
import { listBody, type PageParams } from "./page";

export const TRADE_ROLES = ["maker", "taker", "any"] as const;
export type TradeRole = (typeof TRADE_ROLES)[number];

/**
 * A WalletTrade (/v1/wallets/:address/trades): the wallet's role in the fill,
 * then the Fill's fields, over a row `o` of fills and a row `w` holding the
 * wallet's address. A wallet that took its own offer is `both`.
 */
export const WALLET_TRADE_FIELDS = {
  role: field(
    "tradeRole",
    `(case when o.maker = w.address then (case when o.taker = w.address then 'both' else 'maker' end) else 'taker' end)`,
  ),
  ...FILL_FIELDS,
};

const TRADE_JSON = jsonObject(WALLET_TRADE_FIELDS);

export interface WalletTradeQuery extends PageParams {
  address: string;
  role: TradeRole;
}

/*
 * Each role is one range of its index (fills_maker_idx, fills_taker_idx:
 * (wallet, slot, signature, ixIndex) newest first); `any` merges the two
 * ranges, each cut at the page's end, and takes a fill the wallet both made
 * and took once (from the maker range).
 */

/**
 * The page's statement: $1 the wallet, $2 the window (limit + offset) each
 * range is cut at, $3 limit, $4 offset; with `afterCursor`, $5..$7 the
 * cursor's slot, signature and ixIndex. Text, so a test can EXPLAIN it.
 */
/** The role's ranges, each `select`ing what it is given; with `window`, each range cut at that parameter. */
function roleRanges(role: TradeRole, select: string, after: string, window: string | undefined): string {
  const range = (who: string) => `(
    select ${select}
    from fills o, (select $1::text as address) w
    where ${who} ${after}
    order by ${FILL_FEED_ORDER}${window ? ` limit ${window}` : ""})`;
  return role === "maker"
    ? range("o.maker = w.address")
    : role === "taker"
      ? range("o.taker = w.address")
      : `${range("o.maker = w.address")} union all ${range("o.taker = w.address and o.maker <> w.address")}`;
}

export function walletTradesStatement(role: TradeRole, afterCursor: boolean): string {
  const after = afterCursor ? "and (o.slot, o.signature, o.ix_index) < ($5::bigint, $6::text, $7::int)" : "";
  const rows = roleRanges(role, `o.slot, o.signature, o.ix_index, ${TRADE_JSON} as j`, after, "$2");
  return `
    select coalesce(json_agg(j order by ${FILL_FEED_ORDER}), '[]')::text as items,
      count(*)::int as n,
      (array_agg(array[slot::text, signature, ix_index::text] order by slot asc, signature asc, ix_index asc))[1:1] as last
    from (select * from (${rows}) u order by ${FILL_FEED_ORDER} limit $3 offset $4) page`;
}

/**
 * GET /v1/wallets/:address/trades: the fills where the wallet is the maker,
 * the taker or either, newest first in the feed's order, paged by the feed's
 * keyset cursor.
 */
export async function listWalletTrades(db: Database, q: WalletTradeQuery): Promise<string> {
  const sql = db.$client;
  const after = q.cursor ? decodeFillCursor(q.cursor) : undefined;
  const params: (string | number)[] = [q.address, q.limit + q.offset, q.limit, q.offset];
  if (after) params.push(after.slot.toString(), after.signature, after.ixIndex);
  const [row] = await sql.unsafe(walletTradesStatement(q.role, after !== undefined), params);
  const last = row?.last?.[0] as string[] | undefined;
  const next =
    row && row.n === q.limit && last ? encodeFillCursor({ slot: BigInt(last[0]!), signature: last[1]!, ixIndex: Number(last[2]) }) : null;
  return listBody("trades", row?.items ?? "[]", q, next);
}

const TRADE_CSV_LINE = csvLine(WALLET_TRADE_FIELDS);

/**
 * The export's statement: $1 the wallet; with `afterCursor`, $2..$4 the
 * cursor's slot, signature and ixIndex. The page's ranges without their limit.
 */
export function walletTradesExportStatement(role: TradeRole, afterCursor: boolean): string {
  const after = afterCursor ? "and (o.slot, o.signature, o.ix_index) < ($2::bigint, $3::text, $4::int)" : "";
  const select = `o.slot as k_slot, o.signature as k_signature, o.ix_index as k_ix_index, ${TRADE_CSV_LINE} as line`;
  return `select line from (${roleRanges(role, select, after, undefined)}) u order by k_slot desc, k_signature desc, k_ix_index desc`;
}

/** GET /v1/wallets/:address/trades as CSV: every trade of the role, after `cursor` when given, newest first. */
export function exportWalletTrades(db: Database, q: { address: string; role: TradeRole; cursor?: string }): AsyncGenerator<Buffer> {
  const after = q.cursor ? decodeFillCursor(q.cursor) : undefined;
  const params: (string | number)[] = [q.address];
  if (after) params.push(after.slot.toString(), after.signature, after.ixIndex);
  const statement = walletTradesExportStatement(q.role, after !== undefined);
  return csvLines(db.$client, (sql) => sql.unsafe(statement, params), csvHeader(WALLET_TRADE_FIELDS));
}
