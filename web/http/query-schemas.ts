import { z } from "zod";
import { ApiError } from "./errors";
import { format } from "./csv";
import { address, clampedCount, cursor, limit, offset, side, status, unixSeconds } from "./params";
import { DEFAULT_BOOK_DEPTH, MAX_BOOK_DEPTH } from "../../lib/db/reads/book";
import { TRADE_ROLES } from "../../lib/db/reads/wallet-trades";
import { MAKER_SORTS } from "../../lib/db/reads/makers";
import { MAKER_WINDOW_NAMES } from "../../lib/db/reads/maker-windows";
import { CANDLE_RESOLUTIONS, type CandleResolution } from "../../lib/db/reads/candles";

// The query parameters of each /v1 list, as docs/api.md#endpoints fixes them; each
// schema is made once, here, never per request (see parseQuery).

const page = { limit, offset, cursor: cursor.optional() };

export const offerListQuery = z.object({
  status: status.default("open"),
  maker: address("maker").optional(),
  tokenMint: address("tokenMint").optional(),
  paymentMint: address("paymentMint").optional(),
  side: side.optional(),
  sort: z.enum(["created", "price"], { message: "sort must be created or price" }).default("created"),
  ...page,
  format,
});

export const makerOfferListQuery = z.object({ status: status.default("open"), ...page });

export const fillListQuery = z.object({
  taker: address("taker").optional(),
  maker: address("maker").optional(),
  offerPda: address("offerPda").optional(),
  tokenMint: address("tokenMint").optional(),
  paymentMint: address("paymentMint").optional(),
  fromTime: unixSeconds("fromTime").optional(),
  toTime: unixSeconds("toTime").optional(),
  ...page,
  format,
});

export { CANDLE_RESOLUTIONS, type CandleResolution } from "../../lib/db/reads/candles";
export const MAX_CANDLES = 1500;
const resolutionNames = Object.keys(CANDLE_RESOLUTIONS) as [CandleResolution, ...CandleResolution[]];

/** A day of minutes (1,440) or a year of days fits in one answer. */
const candleLimit = clampedCount("limit", MAX_CANDLES, 500, "Candles at most");

/** A true/false switch, false when absent. */
const flag = (name: string, description: string) =>
  z
    .enum(["true", "false"], { message: `${name} must be true or false` })
    .default("false")
    .transform((v) => v === "true")
    .meta({ description: `${description}; default false`, example: "true" });

export const candleQuery = z.object({
  tokenMint: address("tokenMint"),
  paymentMint: address("paymentMint"),
  resolution: z
    .enum(resolutionNames, { message: `resolution must be one of ${resolutionNames.join(", ")}` })
    .meta({ description: "The bucket's length", example: "1h" }),
  fromTime: unixSeconds("fromTime").optional(),
  toTime: unixSeconds("toTime").optional(),
  limit: candleLimit,
  units: z
    .enum(["raw", "human"], { message: "units must be raw or human" })
    .default("raw")
    .meta({
      description:
        "raw (default): raw payment units per raw token unit, raw volumes. human: shifted by the mints' decimals (payment per whole token, " +
        "whole-token volumes), still exact; 400 when a mint's decimals are unknown",
      example: "human",
    }),
  invert: flag("invert", "Prices as token per payment (1/price rounded to 18 significant digits, half away from zero); high and low, and volume and quoteVolume, trade places"),
  includeEmpty: flag("includeEmpty", "Every bucket from the pair's first candle on: an empty one carries the previous close, with zero volume and zero fills"),
});

export const offerFillListQuery = z.object({ ...page, limit: limit.default(200) });

/** Rules across parameters, checked after each parameter on its own is valid. */
export function checkPage(q: { cursor?: string; offset: number }): void {
  if (q.cursor !== undefined && q.offset !== 0) {
    throw new ApiError("invalid_parameter", "cursor and offset cannot be combined: a cursor already marks the position", "offset");
  }
}

export function checkTimeRange(q: { fromTime?: number; toTime?: number }): void {
  if (q.fromTime !== undefined && q.toTime !== undefined && q.fromTime > q.toTime) {
    throw new ApiError("invalid_parameter", "fromTime must not be after toTime", "fromTime");
  }
}

export function checkBookSort(q: { sort: string; tokenMint?: string; paymentMint?: string; cursor?: string }): void {
  if (q.sort !== "price") return;
  if (!q.tokenMint || !q.paymentMint) {
    throw new ApiError("invalid_parameter", "sort=price needs tokenMint and paymentMint (one book)", q.tokenMint ? "paymentMint" : "tokenMint");
  }
  if (q.cursor !== undefined) throw new ApiError("invalid_parameter", "sort=price pages by offset, not by cursor", "cursor");
}

export const MAX_MINTS = 100;
const mintAddress = address("mints");

/** `mints` on /v1/tokens: 1 to 100 comma-separated mints, duplicates folded, in the order asked. */
export function parseMints(url: URL): string[] {
  const raw = url.searchParams.get("mints");
  if (raw === null || raw.trim() === "") {
    throw new ApiError("missing_parameter", "mints is required: a comma-separated list of base58 mints", "mints");
  }
  const mints = [...new Set(raw.split(",").map((m) => m.trim()).filter(Boolean))];
  if (mints.length === 0) throw new ApiError("missing_parameter", "mints is required: a comma-separated list of base58 mints", "mints");
  if (mints.length > MAX_MINTS) throw new ApiError("invalid_parameter", `mints takes at most ${MAX_MINTS} distinct mints`, "mints");
  const bad = mints.find((m) => !mintAddress.safeParse(m).success);
  if (bad !== undefined) throw new ApiError("invalid_parameter", `mints must be base58 addresses of 32 bytes; ${bad.slice(0, 60)} is not`, "mints");
  return mints;
}

const FEED_TYPES = ["fill", "offer", "revoke", "candle"] as const;
/** Candle events are asked for by name (types=candle): a stream without `types` stays fills, offers and revokes. */
const DEFAULT_FEED_TYPES = ["fill", "offer", "revoke"] as const;
const feedTypes = z
  .string()
  .transform((v) => v.split(",").map((t) => t.trim()).filter(Boolean))
  .refine((types) => types.length > 0 && types.every((t) => (FEED_TYPES as readonly string[]).includes(t)), {
    message: `types must be a comma-separated list of ${FEED_TYPES.join(", ")}`,
  })
  .transform((types) => new Set(types as (typeof FEED_TYPES)[number][]))
  .default(new Set(DEFAULT_FEED_TYPES));

/** An event id: a decimal string, as the stream's `id:` lines write it. */
export const eventId = (name: string) =>
  z
    .string()
    .regex(/^\d{1,19}$/, { message: `${name} must be an event id (a decimal string from the stream's id: lines)` })
    .transform(BigInt);

/** GET /v1/stream. `after` resumes like the Last-Event-ID header, which wins when both are sent (EventSource's reconnect). */
export const streamQuery = z.object({
  tokenMint: address("tokenMint").optional(),
  paymentMint: address("paymentMint").optional(),
  maker: address("maker").optional(),
  offerPda: address("offerPda").optional(),
  types: feedTypes,
  after: eventId("after").optional(),
});

/** GET /v1/book: one pair, `depth` price levels per side. */
export const bookQuery = z.object({
  tokenMint: address("tokenMint"),
  paymentMint: address("paymentMint"),
  depth: clampedCount("depth", MAX_BOOK_DEPTH, DEFAULT_BOOK_DEPTH, "Price levels per side"),
});

/** GET /v1/wallets/:address/trades. */
export const walletTradeQuery = z.object({
  role: z
    .enum(TRADE_ROLES, { message: `role must be one of ${TRADE_ROLES.join(", ")}` })
    .default("any")
    .meta({ description: "The wallet as the offer's maker, as the taker, or either (default)", example: "any" }),
  ...page,
  format,
});

const makerWindow = (fallback: (typeof MAKER_WINDOW_NAMES)[number]) =>
  z
    .enum(MAKER_WINDOW_NAMES, { message: `window must be one of ${MAKER_WINDOW_NAMES.join(", ")}` })
    .default(fallback)
    .meta({
      description: `24h: the current UTC hour and the 23 before; 7d, 30d: the current UTC day and the 6 or 29 before; all: since the first fill. Default ${fallback}`,
      example: "7d",
    });

/** GET /v1/makers: the leaderboard. */
export const makerLeaderboardQuery = z.object({
  window: makerWindow("24h"),
  sort: z
    .enum(MAKER_SORTS, { message: `sort must be one of ${MAKER_SORTS.join(", ")}` })
    .default("fills")
    .meta({ description: "volume (needs paymentMint), fills, or offers created; descending, then by maker. Default fills", example: "fills" }),
  paymentMint: address("paymentMint").optional(),
  ...page,
});

/** sort=volume ranks by one mint's volume: raw amounts of different mints do not add up. */
export function checkMakerSort(q: { sort: string; paymentMint?: string }): void {
  if (q.sort === "volume" && q.paymentMint === undefined) {
    throw new ApiError("invalid_parameter", "sort=volume needs paymentMint: volumes in different payment mints do not add up", "paymentMint");
  }
}

/** GET /v1/makers/:maker/stats. */
export const makerStatsQuery = z.object({ window: makerWindow("all") });
