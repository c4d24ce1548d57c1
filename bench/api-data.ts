import bs58 from "bs58";
import { randomBytes } from "node:crypto";
import type postgres from "postgres";
import { startTokenStandin, type TokenStandin } from "../local/tokens/index";

// Bench data, generated set-based in SQL: addresses that the API validates
// (makers, takers, mints, offer pdas) are real 32-byte base58 keys made here
// and shipped in as arrays; everything else is derived in SQL from the row number.

export const OFFERS = Number(process.env.BENCH_OFFERS ?? 1_000_000);
export const FILLS = Number(process.env.BENCH_FILLS ?? 5_000_000);
const MAKERS = 20_000;
const TAKERS = 50_000;
const TOKENS = 50;
export const PAYMENT_MINTS = [
  "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
  "So11111111111111111111111111111111111111112",
];

/**
 * The token provider the bench gives the web (bench/api.ts, bench/api-profile.ts):
 * a stand-in that knows every bench mint, tokens of 9 decimals and payments
 * of 6 (as bench/bare-adapters.ts gives the bare server), for the adapters'
 * and units=human's decimals. Without a limit of its own: at its default (30
 * calls a minute, Jupiter's keyless tier) the webs' first look-ups (one call
 * per few mints, both webs against one stand-in) drew 429s, the token service
 * paused its calls for a minute and the web answered 503 to the mints not yet
 * cached. benchTokenEnv is the web's side of it.
 */
export function startBenchTokenStandin(tokenMints: readonly string[]): Promise<TokenStandin> {
  return startTokenStandin({
    limit: 1_000_000,
    extraTokens: [
      ...tokenMints.map((mint) => ({ mint, symbol: "BENCH", name: "Bench token", decimals: 9 })),
      ...PAYMENT_MINTS.map((mint) => ({ mint, symbol: "PAY", name: "Bench payment", decimals: 6 })),
    ],
  });
}

/** The web's environment for the stand-in at `url`: its own call budget high enough never to pause. */
export const benchTokenEnv = (url: string) => ({ TOKEN_API_URL: url, TOKEN_API_RPM: "100000" });

const keys = (n: number) => Array.from({ length: n }, () => bs58.encode(randomBytes(32)));

async function loadKeys(sql: postgres.Sql, table: string, n: number): Promise<void> {
  await sql.unsafe(`create table ${table} (id int primary key, key text not null)`);
  const chunk = 100_000;
  for (let start = 0; start < n; start += chunk) {
    const batch = keys(Math.min(chunk, n - start));
    await sql`insert into ${sql(table)} (id, key) select ${start} + ordinality::int, k from unnest(${batch}::text[]) with ordinality as t(k, ordinality)`;
  }
}

export async function generate(sql: postgres.Sql, log: (line: string) => void): Promise<void> {
  const t0 = Date.now();
  const indexes = await sql<{ indexdef: string; indexname: string }[]>`
    select indexname, indexdef from pg_indexes
    where schemaname = 'public' and tablename in ('offers', 'fills')
      and not exists (select 1 from pg_constraint c where c.conname = indexname)`;
  for (const { indexname } of indexes) await sql.unsafe(`drop index ${indexname}`);
  await sql.unsafe("set session_replication_role = replica"); // no per-row aggregate triggers for a bulk load
  await sql.unsafe("set maintenance_work_mem = '1GB'");
  await loadKeys(sql, "bench_makers", MAKERS);
  await loadKeys(sql, "bench_takers", TAKERS);
  await loadKeys(sql, "bench_tokens", TOKENS);
  await loadKeys(sql, "bench_pdas", OFFERS);
  log(`keys made in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // Offers span ~a year, 30 s apart; each lives 30 days. Old offers are mostly
  // filled, cancelled or cranked; 2% lapsed uncranked; the last month is mostly open.
  await sql.unsafe(`
    insert into offers (pda, maker, token_mint, payment_mint, side, nonce, original_size, remaining_size,
      price_per_token, price_scale, min_fill, created_at, expires_at, state, lapsed, created_slot, last_slot)
    select p.key, m.key, t.key, (array['${PAYMENT_MINTS.join("','")}'])[1 + (i / ${TOKENS}) % 4],
      case when i % 3 = 0 then 'buy' else 'sell' end::offer_side,
      i, size, case when st = 'filled' then 0 else size - (size * (i % 7) / 10) end,
      1 + (i * 7919) % 5000000, 6, 1, created, created + interval '30 days', st::offer_state,
      st = 'active' and created + interval '30 days' <= now(), -- as the worker's lapse job leaves them
      200000000 + i * 75, 200000000 + i * 75
    from (
      select i, (1000 + (i * 104729) % 1000000000)::numeric as size,
        now() - (${OFFERS} - i) * interval '30 seconds' as created,
        case
          when now() - (${OFFERS} - i) * interval '30 seconds' < now() - interval '30 days' then
            case when i % 100 < 50 then 'filled' when i % 100 < 70 then 'cancelled' when i % 100 < 98 then 'expired' else 'active' end
          else case when i % 10 < 7 then 'active' when i % 10 < 9 then 'filled' else 'cancelled' end
        end as st
      from generate_series(1::bigint, ${OFFERS}) as i
    ) g
    join bench_pdas p on p.id = g.i
    join bench_makers m on m.id = 1 + (g.i * 7919) % ${MAKERS}
    join bench_tokens t on t.id = 1 + g.i % ${TOKENS}`);
  log(`offers inserted in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // Fills in time order, ~5 per offer, each on an offer created shortly before it.
  const chunk = 1_000_000;
  for (let start = 0; start < FILLS; start += chunk) {
    await sql.unsafe(`
      insert into fills (signature, ix_index, offer_pda, maker, taker, token_mint, payment_mint, side,
        fill_amount, payment_amount, fee_amount, block_time, slot)
      select
        -- base64 breaks its lines after 76 characters: the line break goes too (translate drops what has no counterpart).
        translate(encode(sha512(int8send(j)), 'base64'), E'+/=0OIl\n', 'abcdefg'),
        (j % 3)::int, o.pda, o.maker, tk.key, o.token_mint, o.payment_mint, o.side,
        f.amount, div(f.amount * o.price_per_token, 1000000), ceil(div(f.amount * o.price_per_token, 1000000) * 20 / 10000.0),
        o.created_at + (j % 600) * interval '1 second', o.created_slot + (j % 1500)
      from (select j, greatest(1, (j::bigint * ${OFFERS} / ${FILLS}) - (j * 7) % 1000) as offer_id,
              (10 + (j * 31337) % 100000)::numeric as amount
            from generate_series(${start + 1}::bigint, ${Math.min(start + chunk, FILLS)}) as j) f
      join bench_pdas p on p.id = f.offer_id
      join offers o on o.pda = p.key
      join bench_takers tk on tk.id = 1 + (f.j * 15485863) % ${TAKERS}`);
    log(`fills ${Math.min(start + chunk, FILLS).toLocaleString()} / ${FILLS.toLocaleString()} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }

  for (const { indexdef, indexname } of indexes) {
    await sql.unsafe(indexdef);
    log(`index ${indexname} rebuilt at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  await sql.unsafe("set session_replication_role = origin");
  await sql.unsafe("select rebuild_aggregates()");
  // rebuild_aggregates leaves the candles alone: build them as migration 0007 did, 50,000 fills at a time (merging is order-free).
  await sql.unsafe(`
    do $$
    declare lo bigint := -1; hi bigint;
    begin
      loop
        select max(slot) into hi from (select slot from fills where slot > lo order by slot limit 50000) s;
        exit when hi is null;
        perform candles_add(array(select f from fills f where f.slot > lo and f.slot <= hi), array[60, 300, 900, 3600, 14400, 86400]);
        lo := hi;
      end loop;
    end $$`);
  log(`candles built at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await sql.unsafe("vacuum analyze offers");
  await sql.unsafe("vacuum analyze fills");
  await sql.unsafe("vacuum analyze candles");
  await sql.unsafe("analyze"); // the aggregates just rebuilt too (maker_activity, candles), as autovacuum would in time
  await recordScan(sql, log);
  await sql.unsafe("create table bench_meta (offers int, fills int, made_at timestamptz default now())");
  await sql`insert into bench_meta (offers, fills) values (${OFFERS}, ${FILLS})`;
  log(`data ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * What a real scan leaves beside the rows it decoded, which the generated
 * data lacked: the chain it indexes (chain_identity: the DEXTools pair's
 * factory), every applied transaction (scanned_transactions: one per fill
 * here, each fill its own transaction, all final since the data is far older
 * than finality) and the scanner's checkpoint at the newest of them. Without
 * them no DEXTools block was announced (/v1/dextools/latest-block answered
 * 404: lib/adapters/dextools.ts's horizon is below the checkpoint's slot).
 * Offers' own transactions (creations, cancels) are not made: the bench's
 * offers carry no signature. Made once, on new data or on data made before
 * this (bench/api.ts calls it on reuse too); a database that has a checkpoint
 * is left alone.
 */
export async function recordScan(sql: postgres.Sql, log: (line: string) => void): Promise<void> {
  const [row] = await sql<{ done: boolean }[]>`select exists(select 1 from scanner_checkpoints) as done`;
  if (row?.done) return;
  const t0 = Date.now();
  const [genesis, program] = keys(2);
  await sql`insert into chain_identity (id, genesis_hash, program_id) values (1, ${genesis!}, ${program!}) on conflict (id) do nothing`;
  const [chain] = await sql<{ program: string }[]>`select program_id as program from chain_identity where id = 1`;
  await sql.unsafe(`
    insert into scanned_transactions (signature, slot, block_time, failed, offer_pdas, finalized)
    select signature, slot, block_time, false, array[offer_pda], true from fills
    on conflict (signature) do nothing`);
  await sql.unsafe(`
    insert into scanner_checkpoints (program_id, last_signature, last_slot)
    select $1, signature, slot from scanned_transactions order by slot desc, signature desc limit 1`, [chain!.program]);
  await sql.unsafe("vacuum analyze scanned_transactions");
  log(`scan record (transactions, checkpoint, chain) made in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
