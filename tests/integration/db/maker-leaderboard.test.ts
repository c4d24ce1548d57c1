import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonObject } from "../../../lib/db/reads/fields";
import { MAKER_RANK_FIELDS, makerLeaderboardStatement, MAKER_SORTS, type MakerSort } from "../../../lib/db/reads/makers";
import { MAKER_WINDOW_NAMES, MAKER_WINDOWS, type MakerWindow } from "../../../lib/db/reads/maker-windows";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, USDC, USDT, WSOL } from "../../helpers/fixtures";

// The leaderboard's statement (lib/db/reads/makers.ts) ranks on sums alone
// and builds the figures per payment mint for the page's makers only. This
// pins that it answers byte for byte what the first definition did (every
// maker of the window aggregated in full, then ranked and cut), over a
// ledger of several makers and payment mints with offers and fills on each
// window's edges (a second either side of the first bucket), sums beyond
// 2^64, ties, and after a rollback deletes fills and offers and a fill moves.

/** The window's rows as first written: whole buckets ending with the current one, the all-time row for all. */
function referenceWindow(window: MakerWindow): string {
  const { resolution, buckets } = MAKER_WINDOWS[window];
  if (resolution === 0) return "a.resolution = 0";
  return `a.resolution = ${resolution} and a.bucket >= maker_activity_bucket(${resolution}, now()) - interval '${(buckets - 1) * resolution} seconds'`;
}

/** The leaderboard as first written (migration 0009's reads): the reference. */
function referenceStatement(window: MakerWindow, sort: MakerSort, afterCursor: boolean): string {
  const key = { volume: "r.volume", fills: "r.fills", offers: "r.offers" }[sort];
  const after = afterCursor ? `where (${key} < $4::numeric or (${key} = $4::numeric and r.maker > $5::text))` : "";
  const mintMap = (column: string) =>
    `coalesce('{' || string_agg(to_json(g.payment_mint)::text || ':"' || g.${column}::text || '"', ',' order by g.payment_mint) filter (where g.${column} <> 0) || '}', '{}')::json`;
  return `
    with g as (
      select a.maker, a.payment_mint, sum(a.fills) as fills, sum(a.offers) as offers, sum(a.volume) as volume, sum(a.taker_fees) as taker_fees
      from maker_activity a
      where ${referenceWindow(window)} and ($3::text is null or a.payment_mint = $3::text)
      group by a.maker, a.payment_mint
    ),
    r as (
      select g.maker, sum(g.fills)::bigint as fills, sum(g.offers)::bigint as offers, sum(g.volume) as volume,
        ${mintMap("volume")} as volume_by_mint, ${mintMap("taker_fees")} as fees_by_mint
      from g group by g.maker
      having sum(g.fills) <> 0 or sum(g.offers) <> 0
    ),
    page as (
      select r.*, ${key} as sort_key from r ${after}
      order by ${key} desc, r.maker asc limit $1 offset $2
    )
    select coalesce(json_agg(j order by sort_key desc, maker asc), '[]')::text as items, count(*)::int as n,
      (array_agg(array[sort_key::text, maker] order by sort_key asc, maker desc))[1:1] as last
    from (select r.sort_key, r.maker, ${jsonObject(MAKER_RANK_FIELDS)} as j from page r) ranked`;
}

const MAKERS = Array.from({ length: 12 }, (_, i) => addressOf(`board:maker-${i}`));
const MINTS = [USDC, USDT, WSOL];

let database: TestDatabase;
let sql: postgres.Sql;

/**
 * Offers and fills around now: 400 offers over the last 40 days (makers,
 * mints and sizes cycling at different periods, so ties and several mints
 * per maker occur), 2,000 fills on them, and one offer with a fill at each
 * window's first bucket edge, a second before it and a second after it.
 */
async function seed(): Promise<void> {
  await sql`
    insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
      min_fill, created_at, expires_at, last_slot)
    select 'board-offer-' || i, (${MAKERS}::text[])[1 + (i * 7) % 12], 'board-token', (${MINTS}::text[])[1 + (i / 5) % 3],
      (case when i % 2 = 0 then 'sell' else 'buy' end)::offer_side, i, 1000 + i, 1000 + i, 1 + i % 13, 0, 1,
      now() - i * interval '2 hours 23 minutes', now() + interval '30 days', 1000 + i
    from generate_series(1, 400) i`;
  const edges = (["24h", "7d", "30d"] as const).map((w) => {
    const { resolution, buckets } = MAKER_WINDOWS[w];
    return `maker_activity_bucket(${resolution}, now()) - interval '${(buckets - 1) * resolution} seconds'`;
  });
  await sql.unsafe(`
    insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size, price_per_token, price_scale,
      min_fill, created_at, expires_at, last_slot)
    select 'board-edge-' || e.n || '-' || d.s, ($1::text[])[1 + (e.n * 3 + d.s + 1) % 12], 'board-token', ($2::text[])[1 + (e.n + d.s + 1) % 3],
      'sell', 1000 + e.n * 3 + d.s, 7, 7, 1, 0, 1, e.at + d.s * interval '1 second', now() + interval '30 days', 2000
    from unnest(array[${edges.join(", ")}]) with ordinality as e(at, n) cross join generate_series(-1, 1) as d(s)`,
    [MAKERS, MINTS],
  );
  await sql`
    insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount, payment_amount, fee_amount, block_time, slot)
    select 'board-fill-' || j, j % 2, o.pda, o.maker, 'board-taker', o.token_mint, o.payment_mint, o.side,
      1 + j % 17, case when j % 97 = 0 then 18446744073709551615 else 100 + (j * 31) % 1000 end, j % 5,
      least(now(), o.created_at + (j % 50) * interval '1 minute'), 5000 + j
    from generate_series(1, 2000) j join offers o on o.pda = 'board-offer-' || (1 + j % 400)`;
  await sql`
    insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side, fill_amount, payment_amount, fee_amount, block_time, slot)
    select 'board-edge-fill-' || o.pda, 0, o.pda, o.maker, 'board-taker', o.token_mint, o.payment_mint, o.side, 3, 30, 1, o.created_at, 9000
    from offers o where o.pda like 'board-edge-%'`;
}

interface Page {
  items: string;
  n: number;
  last: string[][] | null;
}

/** Both statements' answers to every window, sort, payment mint and paging, in one transaction (one now()). */
async function bothAnswers(): Promise<{ reference: Page[]; current: Page[] }> {
  return sql.begin(async (tx) => {
    const reference: Page[] = [];
    const current: Page[] = [];
    const run = async (window: MakerWindow, sort: MakerSort, params: (string | number | null)[], cursor: boolean) => {
      const [old] = (await tx.unsafe(referenceStatement(window, sort, cursor), params)) as unknown as Page[];
      const [now] = (await tx.unsafe(makerLeaderboardStatement(window, sort, cursor), params)) as unknown as Page[];
      reference.push(old!);
      current.push(now!);
      return old!;
    };
    for (const window of MAKER_WINDOW_NAMES) {
      for (const sort of MAKER_SORTS) {
        for (const mint of sort === "volume" ? MINTS : [null, ...MINTS]) {
          const first = await run(window, sort, [5, 0, mint], false);
          await run(window, sort, [50, 0, mint], false);
          await run(window, sort, [4, 3, mint], false);
          const last = first.last?.[0];
          if (last) await run(window, sort, [5, 0, mint, last[0]!, last[1]!], true);
        }
      }
    }
    return { reference, current };
  }) as Promise<{ reference: Page[]; current: Page[] }>;
}

beforeAll(async () => {
  database = await createTestDatabase();
  sql = database.db.$client;
  await seed();
});

afterAll(async () => {
  await database?.drop();
});

describe("the makers' leaderboard statement", () => {
  it("answers what the reference definition answers, on every window, sort, payment mint and page", async () => {
    const { reference, current } = await bothAnswers();
    expect(reference.filter((p) => p.n > 0).length).toBeGreaterThan(reference.length / 2);
    expect(current).toEqual(reference);
  });

  it("still does after a rollback deletes fills and offers and a fill moves in time", async () => {
    await sql`delete from fills where slot % 7 = 0`;
    await sql`delete from offers o where o.pda like 'board-offer-%' and o.nonce % 11 = 0 and not exists (select 1 from fills f where f.offer_pda = o.pda)`;
    await sql`delete from fills where signature like 'board-edge-fill-%' and offer_pda like '%-0'`;
    await sql`update fills set block_time = block_time - interval '1 hour' where slot % 13 = 0`;
    const { reference, current } = await bothAnswers();
    expect(current).toEqual(reference);
  });
});
