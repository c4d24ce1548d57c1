import { z } from "zod";
import "zod-openapi";
import { MAX_BOOK_DEPTH } from "../../../lib/db/reads/book";
import { MAX_TRADES } from "../adapter-query-schemas";
import { BASE58_ADDRESS } from "../params";
import { address, errorBody } from "./response-schemas";

// The answers of the aggregator adapters (/v1/coingecko/*, /v1/dextools/*)
// as zod schemas for the OpenAPI document. The tests check them against the
// standards themselves (tests/fixtures/dextools/ holds DEXTools' own OpenAPI
// file): these describe what we send, in our document.

const EXAMPLE_TOKEN = "So11111111111111111111111111111111111111112";
const EXAMPLE_PAYMENT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const EXAMPLE_SIGNATURE = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
/** The most pairs one answer lists: far above any book this program holds. */
const MAX_PAIRS = 100_000;

const whole = (description: string, example: string) =>
  z.string().regex(/^\d+(\.\d+)?$/).max(300).meta({ description: `${description}: an exact decimal in whole tokens`, example });

const tickerIdOf = z
  .string()
  .regex(new RegExp(`^${BASE58_ADDRESS}_${BASE58_ADDRESS}$`))
  .max(89)
  .meta({ description: "TOKEN_PAYMENT: the token's mint and the payment mint joined by _", example: `${EXAMPLE_TOKEN}_${EXAMPLE_PAYMENT}` });

export const coinGeckoPair = z
  .object({
    ticker_id: tickerIdOf,
    base: address.meta({ description: "The token's mint", example: EXAMPLE_TOKEN }),
    target: address.meta({ description: "The payment mint", example: EXAMPLE_PAYMENT }),
    pool_id: tickerIdOf.meta({ description: "The ticker_id again: a market of this program has no account of its own" }),
  })
  .meta({ id: "CoinGeckoPair" });

export const coinGeckoPairs = z.array(coinGeckoPair).max(MAX_PAIRS).meta({ id: "CoinGeckoPairs" });

const price = (description: string) => whole(description, "185.5").nullable();

export const coinGeckoTicker = z
  .object({
    ticker_id: tickerIdOf,
    base_currency: address.meta({ example: EXAMPLE_TOKEN }),
    target_currency: address.meta({ example: EXAMPLE_PAYMENT }),
    pool_id: tickerIdOf,
    last_price: price("The last fill's price, payment per whole token; null without fills"),
    base_volume: whole("The last 24 hours' filled tokens", "1250.5"),
    target_volume: whole("The last 24 hours' payment", "231967.75"),
    bid: price("The best open bid; null without one"),
    ask: price("The best open ask; null without one"),
    high: price("The last 24 hours' highest fill price; null without fills"),
    low: price("The last 24 hours' lowest fill price; null without fills"),
    liquidity_in_usd: whole("Only where the payment mint is USDC or USDT: the open offers' value in it", "50000").optional(),
  })
  .meta({ id: "CoinGeckoTicker" });

export const coinGeckoTickers = z.array(coinGeckoTicker).max(MAX_PAIRS).meta({ id: "CoinGeckoTickers" });

const bookLevel = z
  .array(whole("The price (payment per whole token), then the open quantity at it (whole tokens)", "185.5"))
  .length(2)
  .meta({ description: "[price, quantity]", example: ["185.5", "12.5"] });

export const coinGeckoOrderbook = z
  .object({
    ticker_id: tickerIdOf,
    timestamp: z.number().int().min(0).meta({ description: "When the book was read, milliseconds since the epoch", example: 1780617600000 }),
    bids: z.array(bookLevel).max(MAX_BOOK_DEPTH).meta({ description: "Highest first" }),
    asks: z.array(bookLevel).max(MAX_BOOK_DEPTH).meta({ description: "Lowest first" }),
  })
  .meta({ id: "CoinGeckoOrderbook" });

const trade = z
  .object({
    trade_id: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}:\d+$/).max(100).meta({
      description: "The fill's transaction signature and its position in it, joined by ':'",
      example: `${EXAMPLE_SIGNATURE}:0`,
    }),
    price: whole("The offer's price, payment per whole token", "185.5"),
    base_volume: whole("Tokens filled", "2"),
    target_volume: whole("Payment for them (before the fee)", "371"),
    trade_timestamp: z.number().int().min(0).meta({ description: "The block's time, milliseconds since the epoch", example: 1780617600000 }),
    type: z.enum(["buy", "sell"]).meta({ description: "The taker's side: buy took an ask, sell took a bid" }),
  })
  .meta({ id: "CoinGeckoTrade" });

export const coinGeckoTrades = z
  .object({ buy: z.array(trade).max(MAX_TRADES), sell: z.array(trade).max(MAX_TRADES) })
  .meta({ id: "CoinGeckoTrades" });

const int64 = (description: string, example: number) => z.number().int().min(0).meta({ description, example });

const dexBlock = z
  .object({
    blockNumber: int64("The slot", 312345678),
    blockTimestamp: int64("The block's time, unix seconds", 1780617600),
  })
  .meta({ id: "DexToolsBlock" });

export const dexBlockAnswer = z.object({ block: dexBlock }).meta({ id: "DexToolsBlockAnswer" });

export const dexAssetAnswer = z
  .object({
    asset: z.object({
      id: address.meta({ example: EXAMPLE_TOKEN }),
      name: z.string().max(200).optional(),
      symbol: z.string().max(50).optional(),
    }),
  })
  .meta({ id: "DexToolsAssetAnswer" });

const dexPairIdOf = z
  .string()
  .regex(new RegExp(`^${BASE58_ADDRESS}:${BASE58_ADDRESS}$`))
  .max(89)
  .meta({ description: "TOKEN:PAYMENT", example: `${EXAMPLE_TOKEN}:${EXAMPLE_PAYMENT}` });

export const dexPairAnswer = z
  .object({
    pair: z.object({
      id: dexPairIdOf,
      asset0Id: address.meta({ description: "The token's mint", example: EXAMPLE_TOKEN }),
      asset1Id: address.meta({ description: "The payment mint", example: EXAMPLE_PAYMENT }),
      createdAtBlockNumber: int64("The slot of the pair's first offer", 312345000),
      createdAtBlockTimestamp: int64("Its creation time, unix seconds", 1780600000),
      createdAtTxnId: z.string().max(88).meta({ description: "The signature that created it", example: EXAMPLE_SIGNATURE }),
      factoryAddress: z.string().max(44).meta({ description: "The offer-book program" }),
      feeBps: z.number().int().min(0).meta({ description: "The program's fee, in basis points of the payment", example: 20 }),
    }),
  })
  .meta({ id: "DexToolsPairAnswer" });

const dexAmount = (description: string) =>
  z.string().regex(/^\d+\.\d+$/).max(300).optional().meta({ description: `${description}, whole tokens (always with a fractional part)`, example: "1.5" });

const swap = z
  .object({
    block: dexBlock,
    txnId: z.string().max(88).meta({ example: EXAMPLE_SIGNATURE }),
    txnIndex: int64("The transaction's rank among the block's indexed transactions, by signature", 0),
    eventIndex: int64("The fill's rank among the block's fills, by signature and position", 0),
    maker: address.meta({ description: "The taker: the wallet that signed the take" }),
    pairId: dexPairIdOf,
    eventType: z.literal("swap"),
    asset0In: dexAmount("Tokens the taker sold (a take of a bid)"),
    asset1Out: dexAmount("Payment the taker received, less the fee (a take of a bid)"),
    asset0Out: dexAmount("Tokens the taker bought (a take of an ask)"),
    asset1In: dexAmount("Payment the taker paid (a take of an ask)"),
  })
  .meta({ id: "DexToolsSwap" });

/** One request spans at most MAX_EVENT_SLOTS slots; this bounds the document's array, not the server. */
export const dexEventsAnswer = z.object({ events: z.array(swap).max(1_000_000) }).meta({ id: "DexToolsEvents" });

export const dexToolsError = errorBody
  .extend({
    message: z.string().max(40_000).meta({ description: "The error again, as the DEXTools adapter names it" }),
    issues: z
      .array(z.object({ param: z.string().max(64), code: z.string().max(32), message: z.string().max(40_000) }))
      .max(1)
      .optional(),
  })
  .meta({ id: "DexToolsError" });
