import { listCoinGeckoTrades, parseTickerId, readCoinGeckoOrderbook, type TradeType } from "../lib/adapters/coingecko";
import { coinGeckoMarkets } from "../lib/adapters/coingecko-markets";
import { findDexBlock, latestDexBlock, listDexEvents, mintIsTraded, parseDexPairId, readDexPair } from "../lib/adapters/dextools";
import type { DecimalsOf, PairDecimals } from "../lib/adapters/pair-units";
import type { Database } from "../lib/db/client";
import { MAX_BOOK_DEPTH } from "../lib/db/reads/book";
import { PAYMENT_MINTS } from "./api-data";

// The bare server's aggregator adapters (bench/bare-server.ts): the very
// lib/adapters functions the web's /v1/coingecko and /v1/dextools routes call,
// with no validation around them. Decimals as the bench's token stand-in
// gives them to the web (bench/api.ts): payment mints 6, tokens 9.

const decimalsOf: DecimalsOf = async (mints) => new Map(mints.map((m) => [m, PAYMENT_MINTS.includes(m) ? 6 : 9]));
const PAIR_DECIMALS: PairDecimals = { token: 9, payment: 6 };
const markets = coinGeckoMarkets(decimalsOf);

const json = (value: unknown) => JSON.stringify(value);
const seconds = (q: URLSearchParams, k: string) => (q.has(k) ? Number(q.get(k)) : undefined);

/** The body of /v1/coingecko/* or /v1/dextools/*, undefined for a 404 (as the web answers an unknown pair). */
export async function answerAdapter(db: Database, kind: string, name: string, q: URLSearchParams): Promise<string | undefined> {
  if (kind === "coingecko") {
    if (name === "pairs") return markets.pairs(db);
    if (name === "tickers") return markets.tickers(db);
    const pair = parseTickerId(q.get("ticker_id") ?? "");
    if (!pair) return undefined;
    if (name === "orderbook") {
      const depth = Number(q.get("depth") ?? 0);
      return readCoinGeckoOrderbook(db, pair, PAIR_DECIMALS, depth === 0 ? MAX_BOOK_DEPTH : Math.ceil(depth / 2));
    }
    if (name === "historical_trades") {
      const limit = Math.min(Number(q.get("limit") ?? 500) || 1000, 1000);
      const type = (q.get("type") ?? undefined) as TradeType | undefined;
      return listCoinGeckoTrades(db, { ...pair, type, limit, startTime: seconds(q, "start_time"), endTime: seconds(q, "end_time") }, PAIR_DECIMALS);
    }
    return undefined;
  }
  if (kind !== "dextools") return undefined;
  if (name === "latest-block") {
    const block = await latestDexBlock(db);
    return block ? json({ block }) : undefined;
  }
  if (name === "block") {
    const block = await findDexBlock(db, q.has("number") ? { number: Number(q.get("number")) } : { timestamp: Number(q.get("timestamp")) });
    return block ? json({ block }) : undefined;
  }
  if (name === "asset") {
    const id = q.get("id") ?? "";
    return (await mintIsTraded(db, id)) ? json({ asset: { id } }) : undefined; // the web adds the token service's name and symbol
  }
  if (name === "pair") {
    const pairId = parseDexPairId(q.get("id") ?? "");
    const pair = pairId && (await readDexPair(db, pairId));
    return pair ? json({ pair }) : undefined;
  }
  if (name === "events") {
    return json({ events: await listDexEvents(db, { fromBlock: Number(q.get("fromBlock")), toBlock: Number(q.get("toBlock")) }, decimalsOf) });
  }
  return undefined;
}
