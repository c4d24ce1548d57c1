import bs58 from "bs58";
import { z } from "zod";
import { parseTickerId, TICKER_SEPARATOR } from "../../lib/adapters/coingecko";
import { MAX_EVENT_SLOTS, parseDexPairId, PAIR_SEPARATOR } from "../../lib/adapters/dextools";
import type { Pair } from "../../lib/adapters/pair-units";
import { MAX_BOOK_DEPTH } from "../../lib/db/reads/book";
import { ApiError } from "./errors";
import { address, BASE58_ADDRESS, documentedInteger, MAX_UNIX_SECONDS, unixSeconds } from "./params";

// The query parameters of the aggregator adapters (/v1/coingecko/*,
// /v1/dextools/*), named as the standards they follow name them; validated
// like every /v1 parameter (a 400 naming the parameter).

const is32Bytes = (value: string): boolean => {
  try {
    return bs58.decode(value).length === 32;
  } catch {
    return false;
  }
};

/** Two base58 mints joined by `separator`, read as a pair (token first, payment second). */
const pairOf = (name: string, separator: string, parse: (id: string) => Pair | null, example: string) =>
  z
    .string()
    .transform((id, context) => {
      const pair = parse(id);
      if (pair && is32Bytes(pair.tokenMint) && is32Bytes(pair.paymentMint)) return pair;
      context.addIssue({ code: "custom", message: `${name} must be TOKEN${separator}PAYMENT: two base58 mints joined by "${separator}"` });
      return z.NEVER;
    })
    .meta({
      description: `The pair: the token's mint and the payment mint, base58, joined by "${separator}"`,
      example,
      override: { type: "string", pattern: `^${BASE58_ADDRESS}${separator}${BASE58_ADDRESS}$`, minLength: 65, maxLength: 89 },
    });

const EXAMPLE_TOKEN = "So11111111111111111111111111111111111111112";
const EXAMPLE_PAYMENT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

export const tickerIdParam = pairOf("ticker_id", TICKER_SEPARATOR, parseTickerId, `${EXAMPLE_TOKEN}${TICKER_SEPARATOR}${EXAMPLE_PAYMENT}`);
export const dexPairIdParam = pairOf("id", PAIR_SEPARATOR, parseDexPairId, `${EXAMPLE_TOKEN}${PAIR_SEPARATOR}${EXAMPLE_PAYMENT}`);

/** A whole number from `min` to `max`, written in decimal digits. */
const wholeNumber = (name: string, min: number, max: number, description: string, example: string) =>
  z
    .string()
    .regex(/^-?\d+$/, { message: `${name} must be an integer from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `${name} must be an integer from ${min} to ${max}` })
    .meta({ description, example, ...documentedInteger(min, max) });

/** The standard's depth counts both sides: 100 is 50 bids and 50 asks; 0 the whole book, up to our most levels per side. */
export const coinGeckoOrderbookQuery = z.object({
  ticker_id: tickerIdParam,
  depth: wholeNumber(
    "depth",
    0,
    2 * MAX_BOOK_DEPTH,
    `Price levels in all, half on each side (an odd count rounds up); 0 (default) the whole book, at most ${MAX_BOOK_DEPTH} levels a side`,
    "100",
  ).default(0),
});

/** Levels on each side for the standard's depth. */
export const levelsPerSide = (depth: number): number => (depth === 0 ? MAX_BOOK_DEPTH : Math.ceil(depth / 2));

export const MAX_TRADES = 1000;
export const DEFAULT_TRADES = 500;

export const coinGeckoTradesQuery = z.object({
  ticker_id: tickerIdParam,
  type: z
    .enum(["buy", "sell"], { message: "type must be buy or sell" })
    .optional()
    .meta({ description: "Only the taker's buys (takes of asks) or sells (takes of bids); both when absent", example: "buy" }),
  limit: wholeNumber(
    "limit",
    0,
    Number.MAX_SAFE_INTEGER,
    `Trades at most, newest first; 0 or above ${MAX_TRADES} is ${MAX_TRADES}; default ${DEFAULT_TRADES}`,
    "200",
  )
    .transform((n) => (n === 0 ? MAX_TRADES : Math.min(n, MAX_TRADES)))
    .default(DEFAULT_TRADES),
  start_time: unixSeconds("start_time").optional(),
  end_time: unixSeconds("end_time").optional(),
});

export function checkTradeWindow(q: { start_time?: number; end_time?: number }): void {
  if (q.start_time !== undefined && q.end_time !== undefined && q.start_time > q.end_time) {
    throw new ApiError("invalid_parameter", "start_time must not be after end_time", "start_time");
  }
}

const blockNumber = (name: string, description: string) => wholeNumber(name, 0, Number.MAX_SAFE_INTEGER, description, "312345678");

export const dexBlockQuery = z.object({
  number: blockNumber("number", "The block's number (the slot); wins over timestamp").optional(),
  timestamp: wholeNumber("timestamp", 0, MAX_UNIX_SECONDS, "Unix seconds: the newest block at or before it", "1780617600").optional(),
});

export const dexAssetQuery = z.object({ id: address("id").meta({ description: "The token's mint" }) });

export const dexPairQuery = z.object({ id: dexPairIdParam });

export const dexEventsQuery = z.object({
  fromBlock: blockNumber("fromBlock", "First block (slot) of the range, included"),
  toBlock: blockNumber("toBlock", `Last block (slot) of the range, included; at most ${MAX_EVENT_SLOTS} slots after fromBlock`),
});

export function checkBlockRange(q: { fromBlock: number; toBlock: number }): void {
  if (q.fromBlock > q.toBlock) throw new ApiError("invalid_parameter", "fromBlock must not be after toBlock", "fromBlock");
  if (q.toBlock - q.fromBlock >= MAX_EVENT_SLOTS) {
    throw new ApiError("invalid_parameter", `a range spans at most ${MAX_EVENT_SLOTS} blocks: lower toBlock`, "toBlock");
  }
}
