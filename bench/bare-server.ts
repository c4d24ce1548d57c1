import { createServer, type Server, type ServerResponse } from "node:http";
import type { Database } from "../lib/db/client";
import { CANDLE_RESOLUTIONS, type CandleResolution } from "../web/http/query-schemas";
import { readBook } from "../lib/db/reads/book";
import { listCandles } from "../lib/db/reads/candles";
import { listChartCandles } from "../lib/db/reads/chart-candles";
import { listWalletTrades, type TradeRole } from "../lib/db/reads/wallet-trades";
import { exportFills, listFills, listOfferFills, type FillFilters } from "../lib/db/reads/fills";
import { listMakerLeaderboard, type MakerSort } from "../lib/db/reads/makers";
import { listMarkets } from "../lib/db/reads/markets";
import type { MakerWindow } from "../lib/db/reads/maker-windows";
import { answerAdapter } from "./bare-adapters";
import { getOffer, listOffers } from "../lib/db/reads/offers";
import { makerStats, protocolStats } from "../lib/db/reads/stats";
import type { OfferStatus, Side } from "../lib/offer-status";

// The yardstick: node:http and the postgres driver running the very same
// lib/db/reads functions, with no framework, validation or rate limit around them.

const opt = (q: URLSearchParams, k: string) => q.get(k) ?? undefined;
const num = (q: URLSearchParams, k: string, d: number) => (q.has(k) ? Number(q.get(k)) : d);

const fillFilters = (q: URLSearchParams): FillFilters => ({
  taker: opt(q, "taker"),
  maker: opt(q, "maker"),
  offerPda: opt(q, "offerPda"),
  tokenMint: opt(q, "tokenMint"),
  paymentMint: opt(q, "paymentMint"),
  fromTime: q.has("fromTime") ? Number(q.get("fromTime")) : undefined,
  toTime: q.has("toTime") ? Number(q.get("toTime")) : undefined,
});

async function answer(db: Database, url: URL): Promise<string | undefined> {
  const q = url.searchParams;
  const parts = url.pathname.split("/").filter(Boolean); // ["v1", ...]
  if (parts.length === 1) return '{"version":"v1"}';
  const page = { limit: Math.min(num(q, "limit", 50), 200), offset: num(q, "offset", 0), cursor: opt(q, "cursor") };
  if (parts[1] === "stats") return protocolStats(db);
  if (parts[1] === "markets") return listMarkets(db);
  if (parts[1] === "offers" && parts.length === 2) {
    return listOffers(db, {
      status: (opt(q, "status") ?? "open") as OfferStatus,
      maker: opt(q, "maker"),
      tokenMint: opt(q, "tokenMint"),
      paymentMint: opt(q, "paymentMint"),
      side: opt(q, "side") as Side | undefined,
      sort: q.get("sort") === "price" ? "price" : "created",
      ...page,
    });
  }
  if (parts[1] === "offers" && parts.length === 3) return getOffer(db, parts[2]!);
  if (parts[1] === "offers" && parts[3] === "fills") return listOfferFills(db, parts[2]!, { ...page, limit: num(q, "limit", 200) });
  if (parts[1] === "fills") return listFills(db, { ...fillFilters(q), ...page });
  if (parts[1] === "makers" && parts.length === 2) {
    return listMakerLeaderboard(db, { window: (opt(q, "window") ?? "24h") as MakerWindow, sort: (opt(q, "sort") ?? "fills") as MakerSort, paymentMint: opt(q, "paymentMint"), ...page });
  }
  if (parts[1] === "makers" && parts[3] === "stats") return makerStats(db, parts[2]!, (opt(q, "window") ?? "all") as MakerWindow);
  if (parts[1] === "makers" && parts[3] === "offers") {
    return listOffers(db, { status: (opt(q, "status") ?? "open") as OfferStatus, maker: parts[2]!, ...page });
  }
  if (parts[1] === "candles") {
    const candleQuery = {
      tokenMint: q.get("tokenMint") ?? "",
      paymentMint: q.get("paymentMint") ?? "",
      resolution: CANDLE_RESOLUTIONS[(q.get("resolution") ?? "1h") as CandleResolution],
      toTime: q.has("toTime") ? Number(q.get("toTime")) : undefined,
      limit: Math.min(num(q, "limit", 500), 1500),
    };
    const includeEmpty = q.get("includeEmpty") === "true";
    const invert = q.get("invert") === "true";
    // The bench's mints: tokens of 9 decimals, payments of 6 (bench/api.ts gives the web the same through its token stand-in).
    const decimals = q.get("units") === "human" ? { token: 9, payment: 6 } : undefined;
    if (!includeEmpty && !invert && !decimals) return listCandles(db, candleQuery);
    return listChartCandles(db, candleQuery, { includeEmpty, invert, decimals });
  }
  if (parts[1] === "book") {
    return readBook(db, { tokenMint: q.get("tokenMint") ?? "", paymentMint: q.get("paymentMint") ?? "", depth: Math.min(num(q, "depth", 50), 500) });
  }
  if (parts[1] === "wallets" && parts[3] === "trades") {
    return listWalletTrades(db, { address: parts[2]!, role: (opt(q, "role") ?? "any") as TradeRole, ...page });
  }
  if (parts.length === 3) return answerAdapter(db, parts[1]!, parts[2]!, q);
  return undefined;
}

/** /v1/fills?format=csv: the same export the web streams, written batch by batch as the socket drains. */
async function streamCsv(db: Database, url: URL, res: ServerResponse): Promise<void> {
  res.writeHead(200, { "content-type": "text/csv; charset=utf-8" });
  for await (const lines of exportFills(db, fillFilters(url.searchParams), opt(url.searchParams, "cursor"))) {
    if (!res.write(lines)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}

export function startBareServer(db: Database, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://bare");
    if (url.pathname === "/v1/fills" && url.searchParams.get("format") === "csv") {
      streamCsv(db, url, res).catch(() => res.destroy());
      return;
    }
    answer(db, url)
      .then((body) => {
        res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
        res.end(body ?? "{}");
      })
      .catch((error: unknown) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: String(error) }));
      });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
