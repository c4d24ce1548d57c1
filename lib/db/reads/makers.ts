import { BASE58_ADDRESS } from "../../program/constants";
import type { Database } from "../client";
import { InvalidCursorError } from "./cursor";
import { field, jsonObject } from "./fields";
import { windowCondition, type MakerWindow } from "./maker-windows";
import { listBody, type PageParams } from "./page";

export const MAKER_SORTS = ["volume", "fills", "offers"] as const;
export type MakerSort = (typeof MAKER_SORTS)[number];

/** A row of the leaderboard (/v1/makers), over a row `r` of the window's per-maker figures. */
export const MAKER_RANK_FIELDS = {
  maker: field("address", "r.maker"),
  fills: field("uint", "r.fills"),
  offers: field("uint", "r.offers"),
  volumeByPaymentMint: field("mintMap", "r.volume_by_mint"),
  takerFeesByPaymentMint: field("mintMap", "r.fees_by_mint"),
};

const RANK_JSON = jsonObject(MAKER_RANK_FIELDS);

export interface MakerLeaderboardQuery extends PageParams {
  window: MakerWindow;
  sort: MakerSort;
  /** Only this payment mint's figures; sort=volume needs it (volumes in different mints do not add up). */
  paymentMint?: string;
}

/** The leaderboard's keyset: the sort key (a decimal string) and the maker of a page's last row. */
interface RankCursor {
  key: string;
  maker: string;
}

const ADDRESS = new RegExp(`^${BASE58_ADDRESS}$`);

const encodeRankCursor = (c: RankCursor) => Buffer.from(`${c.key}:${c.maker}`, "utf8").toString("base64url");

function decodeRankCursor(value: string): RankCursor {
  const [key = "", maker = "", ...rest] = Buffer.from(value, "base64url").toString("utf8").split(":");
  if (rest.length > 0 || !/^\d{1,78}$/.test(key) || !ADDRESS.test(maker)) throw new InvalidCursorError();
  return { key, maker };
}

/** The sort key of a per-maker row `r`. */
const SORT_KEY: Record<MakerSort, string> = { volume: "r.volume", fills: "r.fills", offers: "r.offers" };

/** A compact JSON object of payment mint -> decimal string over the rows `g` of one maker with a non-zero `column`; {} when none. */
const mintMap = (column: string) =>
  `coalesce('{' || string_agg(to_json(g.payment_mint)::text || ':"' || g.${column}::text || '"', ',' order by g.payment_mint) filter (where g.${column} <> 0) || '}', '{}')::json`;

/**
 * The page's statement: $1 limit, $2 offset; $3 the payment mint (or null
 * for all); with `afterCursor`, $4 and $5 the cursor's key and maker. It
 * ranks first, on sums alone: maker_activity's buckets of the window (one
 * range of its primary key) summed per maker, ordered by the sort key
 * descending, then the maker ascending, cut to the page. Only the page's
 * makers then get their figures per payment mint, each from its own rows of
 * the window (a range of maker_activity_maker_idx). Text, so a test can
 * EXPLAIN it.
 */
export function makerLeaderboardStatement(window: MakerWindow, sort: MakerSort, afterCursor: boolean): string {
  const key = SORT_KEY[sort];
  const after = afterCursor ? `where (${key} < $4::numeric or (${key} = $4::numeric and r.maker > $5::text))` : "";
  const inWindow = (alias: string) => `${windowCondition(window, alias)} and ($3::text is null or ${alias}.payment_mint = $3::text)`;
  return `
    with r as (
      select a.maker, sum(a.fills)::bigint as fills, sum(a.offers)::bigint as offers${sort === "volume" ? ", sum(a.volume) as volume" : ""}
      from maker_activity a
      where ${inWindow("a")}
      group by a.maker
      having sum(a.fills) <> 0 or sum(a.offers) <> 0
    ),
    page as (
      select r.maker, r.fills, r.offers, ${key} as sort_key from r ${after}
      order by ${key} desc, r.maker asc limit $1 offset $2
    ),
    ranked as (
      select p.*, m.volume_by_mint, m.fees_by_mint
      from page p cross join lateral (
        select ${mintMap("volume")} as volume_by_mint, ${mintMap("taker_fees")} as fees_by_mint
        from (
          select b.payment_mint, sum(b.volume) as volume, sum(b.taker_fees) as taker_fees
          from maker_activity b
          where b.maker = p.maker and ${inWindow("b")}
          group by b.payment_mint
        ) g
      ) m
    )
    select coalesce(json_agg(j order by sort_key desc, maker asc), '[]')::text as items, count(*)::int as n,
      (array_agg(array[sort_key::text, maker] order by sort_key asc, maker desc))[1:1] as last
    from (select r.sort_key, r.maker, ${RANK_JSON} as j from ranked r) ranked_json`;
}

/**
 * GET /v1/makers: the makers of the window ranked by volume (in one payment
 * mint), fills or offers created, paged by offset or by a keyset cursor.
 * Reads maker_activity only: never the fills table.
 */
export async function listMakerLeaderboard(db: Database, q: MakerLeaderboardQuery): Promise<string> {
  const sql = db.$client;
  const after = q.cursor ? decodeRankCursor(q.cursor) : undefined;
  const params: (string | number | null)[] = [q.limit, q.offset, q.paymentMint ?? null];
  if (after) params.push(after.key, after.maker);
  const [row] = await sql.unsafe(makerLeaderboardStatement(q.window, q.sort, after !== undefined), params);
  const last = row?.last?.[0] as string[] | undefined;
  const next = row && row.n === q.limit && last ? encodeRankCursor({ key: last[0]!, maker: last[1]! }) : null;
  return listBody("makers", row?.items ?? "[]", q, next);
}
