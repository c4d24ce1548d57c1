import { CACHE } from "@/web/http/response";
import { route } from "@/web/services";

export const dynamic = "force-dynamic";

const ENDPOINTS = [
  "GET /v1/offers",
  "GET /v1/offers/:pda",
  "GET /v1/offers/:pda/fills",
  "GET /v1/fills",
  "GET /v1/makers/:maker/stats",
  "GET /v1/makers/:maker/offers",
  "GET /v1/stats",
  "GET /v1/tokens?mints=",
  "GET /v1/trending",
  "GET /v1/markets (extension: pairs with open offers or recent fills)",
  "GET /v1/stream (extension: Server-Sent Events of fills, offer changes and revokes)",
  "GET /v1/candles?tokenMint=&paymentMint=&resolution= (extension: OHLC candles of one pair)",
  "GET /v1/book?tokenMint=&paymentMint= (extension: price levels of one pair)",
  "GET /v1/wallets/:address/trades (extension: a wallet's fills as maker or taker)",
  "GET /v1/coingecko/pairs, /tickers, /orderbook?ticker_id=, /historical_trades?ticker_id= (extension: the CoinGecko exchange API standard)",
  "GET /v1/dextools/latest-block, /block, /asset?id=, /pair?id=, /events?fromBlock=&toBlock= (extension: the DEXTools HTTP adapter)",
  "GET /v1/openapi.json (OpenAPI 3.1; rendered at /docs)",
];

// A constant document: serialised once, not per request.
const INDEX = JSON.stringify({ version: "v1", endpoints: ENDPOINTS });

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1", async () => ({ body: { text: INDEX }, cache: CACHE.index }));
