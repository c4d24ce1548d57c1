import * as book from "@/app/v1/book/route";
import * as candles from "@/app/v1/candles/route";
import * as coinGeckoOrderbook from "@/app/v1/coingecko/orderbook/route";
import * as coinGeckoPairs from "@/app/v1/coingecko/pairs/route";
import * as coinGeckoTickers from "@/app/v1/coingecko/tickers/route";
import * as coinGeckoTrades from "@/app/v1/coingecko/historical_trades/route";
import * as dexAsset from "@/app/v1/dextools/asset/route";
import * as dexBlock from "@/app/v1/dextools/block/route";
import * as dexEvents from "@/app/v1/dextools/events/route";
import * as dexLatestBlock from "@/app/v1/dextools/latest-block/route";
import * as dexPair from "@/app/v1/dextools/pair/route";
import * as fills from "@/app/v1/fills/route";
import * as makerOffers from "@/app/v1/makers/[maker]/offers/route";
import * as makerStats from "@/app/v1/makers/[maker]/stats/route";
import * as markets from "@/app/v1/markets/route";
import * as offerFills from "@/app/v1/offers/[pda]/fills/route";
import * as offer from "@/app/v1/offers/[pda]/route";
import * as offers from "@/app/v1/offers/route";
import * as stats from "@/app/v1/stats/route";
import * as tokens from "@/app/v1/tokens/route";
import * as trending from "@/app/v1/trending/route";
import * as walletTrades from "@/app/v1/wallets/[address]/trades/route";

type Get = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The GET handler of each read the MCP server offers, by the OpenAPI document's path template. */
export const READ_HANDLERS: Record<string, Get> = {
  "/v1/offers": offers.GET,
  "/v1/offers/{pda}": offer.GET,
  "/v1/offers/{pda}/fills": offerFills.GET,
  "/v1/fills": fills.GET,
  "/v1/makers/{maker}/stats": makerStats.GET,
  "/v1/makers/{maker}/offers": makerOffers.GET,
  "/v1/stats": stats.GET,
  "/v1/tokens": tokens.GET,
  "/v1/trending": trending.GET,
  "/v1/markets": markets.GET,
  "/v1/candles": candles.GET,
  "/v1/book": book.GET,
  "/v1/wallets/{address}/trades": walletTrades.GET,
  "/v1/coingecko/pairs": coinGeckoPairs.GET,
  "/v1/coingecko/tickers": coinGeckoTickers.GET,
  "/v1/coingecko/orderbook": coinGeckoOrderbook.GET,
  "/v1/coingecko/historical_trades": coinGeckoTrades.GET,
  "/v1/dextools/latest-block": dexLatestBlock.GET,
  "/v1/dextools/block": dexBlock.GET,
  "/v1/dextools/asset": dexAsset.GET,
  "/v1/dextools/pair": dexPair.GET,
  "/v1/dextools/events": dexEvents.GET,
};
