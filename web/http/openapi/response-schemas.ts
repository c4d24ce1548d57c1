import { z } from "zod";
import "zod-openapi";
import { BOOK_LEVEL_FIELDS, MAX_BOOK_DEPTH } from "../../../lib/db/reads/book";
import { CANDLE_FIELDS } from "../../../lib/db/reads/candles";
import type { FieldKind, Fields } from "../../../lib/db/reads/fields";
import { FILL_FIELDS, OFFER_FILL_FIELDS } from "../../../lib/db/reads/fills";
import { MARKET_FIELDS } from "../../../lib/db/reads/markets";
import { OFFER_FIELDS } from "../../../lib/db/reads/offers";
import { FILL_RATE_DECIMALS, MAKER_STATS_FIELDS, PROTOCOL_STATS_FIELDS } from "../../../lib/db/reads/stats";
import { MAKER_RANK_FIELDS } from "../../../lib/db/reads/makers";
import { MAKER_WINDOW_NAMES } from "../../../lib/db/reads/maker-windows";
import { WALLET_TRADE_FIELDS } from "../../../lib/db/reads/wallet-trades";
import { OFFER_SIDES } from "../../../lib/program/offer-account";
import { ERROR_STATUS } from "../errors";
import { BASE58_ADDRESS, MAX_LIMIT, MAX_QUERY_VALUE } from "../params";
import { MAX_CANDLES, MAX_MINTS } from "../query-schemas";

/** The provider's trending list is asked for at most this many (lib/tokens/service.ts clamps trendingLimit). */
const MAX_TRENDING = 100;
import { OFFER_STATUSES } from "../../../lib/offer-status";
import { MINT_RISKS } from "../../../lib/tokens/mint-safety";

// The /v1 response bodies as zod schemas: the OpenAPI document is generated
// from them (web/http/openapi/document.ts), and the API suites check every
// answer they receive against that document (tests/helpers/contract.ts). The
// bodies PostgreSQL builds are made of the fields the reads declare
// (lib/db/reads/fields.ts): their schemas are derived here from those very
// declarations, key by key and in order, each kind with its schema below.

const EXAMPLE_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const EXAMPLE_TOKEN = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const EXAMPLE_WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const EXAMPLE_PDA = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
const EXAMPLE_SIGNATURE = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";

export const address = z
  .string()
  .regex(new RegExp(`^${BASE58_ADDRESS}$`))
  .min(32)
  .max(44)
  .meta({ description: "A base58 address of 32 bytes", example: EXAMPLE_WALLET });
/** A raw u64 amount (or a sum of them, numeric in SQL: 78 digits hold 2^256) as a decimal string: exact beyond 2^53. */
export const amount = z.string().regex(/^\d+$/).max(78).meta({ description: "A raw amount in base units, as a decimal string", example: "1500000" });
const slot = z.string().regex(/^\d+$/).max(20).meta({ description: "A slot (u64), as a decimal string", example: "312345678" });
const isoTime = z.string().max(32).meta({ description: "ISO 8601 UTC with milliseconds", example: "2026-06-01T12:00:00.000Z", format: "date-time" });
const count = z.number().int().min(0);
/** A u64 over 10^priceScale (a u8): at most 20 digits, the point, 255 decimals. */
const decimalPrice = z
  .string()
  .regex(/^\d+(\.\d*[1-9])?$/)
  .max(280)
  .meta({ description: "An exact decimal price in raw payment units per raw token unit, no trailing zeros", example: "2.5" });
const mintMap = z.record(address, amount).meta({ description: "Raw amounts keyed by mint", example: { [EXAMPLE_MINT]: "1250000000" } });

/** The schema of each kind of field; a nested object ("object") is the schema of its own fields. */
const KIND_SCHEMAS: Record<Exclude<FieldKind, "object">, z.ZodType> = {
  address,
  signature: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/).min(64).max(88).meta({ description: "A transaction signature (64 bytes, base58)", example: EXAMPLE_SIGNATURE }),
  amount,
  slot,
  time: isoTime,
  unixTime: z.number().int(),
  uint: count,
  price: decimalPrice,
  side: z.enum(OFFER_SIDES),
  offerStatus: z.enum(OFFER_STATUSES).meta({ description: "`cancelled` is an extension" }),
  tradeRole: z.enum(["maker", "taker", "both"]).meta({ description: "The wallet's part in the fill; both: it took its own offer" }),
  mintMap,
  decimal: z.string().regex(/^\d+(\.\d*[1-9])?$/).max(100).meta({ description: "A non-negative exact decimal, no trailing zeros", example: "0.75" }),
  makerWindow: z.enum(MAKER_WINDOW_NAMES).meta({ description: "The window the figures cover (see docs/api.md#makers)" }),
};

/** What a body says of some of its fields beyond their kind: a description, an example, a narrower range. */
type Refinements<F extends Fields> = { [K in keyof F]?: (kindSchema: z.ZodType) => z.ZodType };

/** The schema of a body of `fields`: each key in the declared order, with its kind's schema, refined, and nullable where the field is. */
function bodyOf<F extends Fields>(fields: F, refinements: Refinements<F> = {}): z.ZodObject<Record<keyof F & string, z.ZodType>> {
  const shape = Object.entries(fields).map(([key, field]) => {
    const kindSchema: z.ZodType = field.kind === "object" ? bodyOf(field.fields ?? {}) : KIND_SCHEMAS[field.kind];
    const schema = refinements[key]?.(kindSchema) ?? kindSchema;
    return [key, field.nullable ? schema.nullable() : schema] as const;
  });
  return z.object(Object.fromEntries(shape) as Record<keyof F & string, z.ZodType>);
}

export const errorBody = z
  .object({
    // A not_found message quotes the path, which Node bounds at 16 KB with the request line.
    error: z.string().max(2 * MAX_QUERY_VALUE).meta({ description: "What went wrong and how to fix it, for a person" }),
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    param: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/).max(64).optional().meta({ description: "The parameter at fault, for 400s" }),
  })
  .meta({ id: "Error", example: { error: "limit must be an integer from 1 to 200", code: "invalid_parameter", param: "limit" } });

export const offer = bodyOf(OFFER_FIELDS, { pda: (s) => s.meta({ example: EXAMPLE_PDA }) }).meta({ id: "Offer" });

const nextCursor = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/).max(200).nullable().meta({ description: "Extension: pass back as `cursor` for the next page; null on the last page" });

export const offerList = z.object({ offers: z.array(offer).max(MAX_LIMIT), limit: count, offset: count, nextCursor }).meta({ id: "OfferList" });

const ixIndex = (s: z.ZodType) => s.meta({ description: "Extension: the take's position in its transaction" });

export const fill = bodyOf(FILL_FIELDS, { ixIndex, maker: (s) => s.meta({ description: "Extension: the offer's maker" }) }).meta({ id: "Fill" });

export const fillList = z.object({ fills: z.array(fill).max(MAX_LIMIT), limit: count, offset: count, nextCursor }).meta({ id: "FillList" });

export const offerFill = bodyOf(OFFER_FILL_FIELDS, { ixIndex }).meta({ id: "OfferFill" });
export const offerFillList = z.object({ fills: z.array(offerFill).max(MAX_LIMIT), limit: count, offset: count, nextCursor }).meta({ id: "OfferFillList" });

const extension = (s: z.ZodType) => s.meta({ description: "Extension" });

export const protocolStats = bodyOf(PROTOCOL_STATS_FIELDS, { cancelledOffers: extension }).meta({ id: "ProtocolStats" });

export const makerStats = bodyOf(MAKER_STATS_FIELDS, {
  cancelledOffers: extension,
  fillRate: (s) => s.meta({ description: `Extension: size filled over size offered, raw token units summed over all the maker's offers, rounded half up to ${FILL_RATE_DECIMALS} decimals; null when nothing was offered` }),
  medianSecondsToFirstFill: (s) => s.meta({ description: "Extension: the median, over the maker's offers that were filled, of the whole seconds from creation to the first fill (a half when two waits share the middle); null when none was filled", example: "42" }),
  activity: (s) => s.meta({ description: "Extension: fills, offers created, volumes and the fees the takers paid, per payment mint, in the window asked (`window`, default all)" }),
}).meta({ id: "MakerStats" });

export const makerRank = bodyOf(MAKER_RANK_FIELDS, {
  fills: (s) => s.meta({ description: "Fills of the maker's offers in the window" }),
  offers: (s) => s.meta({ description: "Offers the maker created in the window" }),
  volumeByPaymentMint: (s) => s.meta({ description: "Payment moved by those fills, raw units per payment mint" }),
  takerFeesByPaymentMint: (s) => s.meta({ description: "The fees the takers of those fills paid, raw units per payment mint" }),
}).meta({ id: "MakerRank" });
export const makerLeaderboard = z.object({ makers: z.array(makerRank).max(MAX_LIMIT), limit: count, offset: count, nextCursor }).meta({ id: "MakerLeaderboard" });

const optionalAddress = (description: string) => address.nullable().meta({ description });
const u64Text = z.string().regex(/^\d+$/).max(20);
const transferFeeRate = z
  .object({
    epoch: u64Text.meta({ description: "The epoch from which this fee applies (u64, decimal string)", example: "700" }),
    basisPoints: z.number().int().min(0).max(65_535).meta({ description: "Fee in hundredths of a percent of each transfer", example: 50 }),
    maximumFee: amount.meta({ description: "The most one transfer pays, in raw token units", example: "5000000" }),
  })
  .meta({ id: "TransferFeeRate" });
export const tokenSafety = z
  .object({
    tokenProgram: z.enum(["spl-token", "token-2022"]).meta({ description: "The program that owns the mint: SPL Token or Token-2022" }),
    mintAuthority: optionalAddress("Who can still mint more; null when the supply is fixed"),
    freezeAuthority: optionalAddress("Who can freeze any holder's token account; null when nobody can"),
    extensions: z
      .array(z.string().max(64))
      .max(64)
      .meta({ description: "Every Token-2022 extension on the mint, by name (camelCase, as spl-token names them; unknown(n) for a newer type); empty for SPL Token", example: ["transferFeeConfig", "permanentDelegate"] }),
    transferFee: z
      .object({
        authority: optionalAddress("Who can change the fee; null when nobody can"),
        older: transferFeeRate,
        newer: transferFeeRate,
      })
      .nullable()
      .meta({ description: "Token-2022 TransferFeeConfig: `older` applies before `newer.epoch`, `newer` from it on; null without the extension" }),
    permanentDelegate: optionalAddress("Token-2022 PermanentDelegate: who can transfer or burn any holder's tokens; null without one"),
    transferHook: z
      .object({ programId: address.nullable(), authority: address.nullable() })
      .nullable()
      .meta({ description: "Token-2022 TransferHook: the program every transfer calls (it may refuse it) and who can change it; null without the extension" }),
    nonTransferable: z.boolean().meta({ description: "Token-2022 NonTransferable: holders cannot transfer the token at all" }),
    defaultFrozen: z.boolean().meta({ description: "Token-2022 DefaultAccountState is frozen: new token accounts start frozen until the freeze authority thaws them" }),
    pausable: z
      .object({ authority: address.nullable(), paused: z.boolean() })
      .nullable()
      .meta({ description: "Token-2022 PausableConfig: who can pause every transfer, and whether they are paused now; null without the extension" }),
    risks: z
      .array(z.enum(MINT_RISKS))
      .max(MINT_RISKS.length)
      .meta({
        description:
          "The facts above that let someone other than the holder inflate, tax, move, block or freeze the token, in this order: mint_authority, " +
          "freeze_authority, transfer_fee (a fee above zero or an authority that can set one), permanent_delegate, transfer_hook, non_transferable, " +
          "default_frozen, pausable. Empty: none of them.",
        example: ["freeze_authority", "transfer_fee"],
      }),
    slot: z.number().int().min(0).meta({ description: "The slot of the chain read these facts come from: a read is reused for 10 minutes, and longer while the chain does not answer", example: 312345678 }),
  })
  .meta({ id: "TokenSafety", description: "What the mint account on chain lets others do to a holder (extension)" });

export const token = z
  .object({
    mint: address.meta({ example: EXAMPLE_MINT }),
    symbol: z.string().nullable(),
    name: z.string().nullable(),
    decimals: z.number().int().min(0).nullable(),
    imageUrl: z.string().meta({ description: "The provider's icon, or the app's placeholder image (absolute URL)" }),
    isVerified: z.boolean().nullable().meta({ description: "The token data provider's verified flag; null when the provider does not know the mint (extension)" }),
    safety: tokenSafety.nullable().meta({
      description:
        "Read from the mint account on chain, with its decimals, and cached with them; null when the server has no RPC, the address is " +
        "not a mint, or the chain did not answer in time for a mint whose decimals the provider gave (extension)",
    }),
  })
  .meta({ id: "Token", description: "symbol, name and decimals are null for a mint neither the provider nor the chain knows (extension)" });

export const tokenList = z.object({ tokens: z.array(token).max(MAX_MINTS) }).meta({ id: "TokenList" });

const nullableFigure = z.number().nullable();
export const trendingItem = z
  .object({
    mint: address,
    symbol: z.string(),
    name: z.string(),
    imageUrl: z.string(),
    priceUsd: nullableFigure,
    change24h: nullableFigure,
    volume24h: nullableFigure,
    liquidityUsd: nullableFigure,
    fdv: nullableFigure,
    marketCap: nullableFigure,
    holders: nullableFigure,
    organicScore: nullableFigure,
    isVerified: z.boolean(),
    dexscreenerUrl: z.string(),
  })
  .meta({ id: "TrendingItem" });

export const trending = z
  .object({
    items: z.array(trendingItem).max(MAX_TRENDING),
    fetchedAt: z.number().int().meta({ description: "Unix seconds of the upstream fetch" }),
    source: z.enum(["cache", "live"]).meta({ description: "Extension" }),
    count,
  })
  .meta({ id: "Trending" });

export const market = bodyOf(MARKET_FIELDS, {
  tokenMint: (s) => s.meta({ example: EXAMPLE_TOKEN }),
  paymentMint: (s) => s.meta({ example: EXAMPLE_MINT }),
}).meta({ id: "Market" });

export const marketList = z.object({ markets: z.array(market) }).meta({ id: "MarketList" });

/** A candle's volume: raw units, an integer; with units=human, whole tokens, an exact decimal. */
const chartAmount = z
  .string()
  .regex(/^\d+(\.\d*[1-9])?$/)
  .max(160)
  .meta({ description: "A sum of raw amounts as a decimal string; in whole tokens with units=human", example: "1500000000" });

export const candle = bodyOf(CANDLE_FIELDS, {
  time: (s) => s.meta({ description: "The bucket's start, unix seconds, UTC-aligned", example: 1780617600 }),
  volume: () => chartAmount.meta({ description: "Sum of fillAmount (of paymentAmount with invert=true)" }),
  quoteVolume: () => chartAmount.meta({ description: "Sum of paymentAmount (of fillAmount with invert=true)" }),
  fills: () => z.number().int().min(0).meta({ description: "Fills in the bucket; 0 only in an empty bucket (includeEmpty=true)" }),
}).meta({
  id: "Candle",
  description: "With units=human or invert=true, prices and volumes are exact decimals that may have a fractional part (an inverted price rounded to 18 significant digits)",
});

export const candleList = z.object({ candles: z.array(candle).max(MAX_CANDLES) }).meta({ id: "CandleList" });

const level = bodyOf(BOOK_LEVEL_FIELDS, {
  size: (s) => s.meta({ description: "Sum of the open offers' remainingSize at this price" }),
  offers: () => z.number().int().min(1).meta({ description: "Open offers at this price" }),
}).meta({ id: "BookLevel" });

export const book = z
  .object({
    tokenMint: address.meta({ example: EXAMPLE_TOKEN }),
    paymentMint: address.meta({ example: EXAMPLE_MINT }),
    depth: count.meta({ description: "The price levels per side asked for (after clamping)" }),
    slot: slot.nullable().meta({ description: "The scanner's newest applied slot when the book was read; null before its first" }),
    feedId: z.string().regex(/^\d+$/).max(19).meta({ description: "The newest live-feed event id the book reflects: /v1/stream?after=feedId continues from it", example: "48213" }),
    asks: z.array(level).max(MAX_BOOK_DEPTH).meta({ description: "Sell offers by price, lowest first" }),
    bids: z.array(level).max(MAX_BOOK_DEPTH).meta({ description: "Buy offers by price, highest first" }),
  })
  .meta({ id: "Book" });

export const walletTrade = bodyOf(WALLET_TRADE_FIELDS, { ixIndex }).meta({ id: "WalletTrade" });
export const walletTradeList = z.object({ trades: z.array(walletTrade).max(MAX_LIMIT), limit: count, offset: count, nextCursor }).meta({ id: "WalletTradeList" });

export const endpointIndex = z
  .object({ version: z.literal("v1"), endpoints: z.array(z.string().max(200)).max(50) })
  .meta({ id: "EndpointIndex" });

export const openApiDocument = z.object({ openapi: z.literal("3.1.0") }).loose().meta({ id: "OpenApiDocument" });
