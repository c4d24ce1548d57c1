import { PAYMENT_MINTS, U64_MAX } from "../../lib/program/constants";
import type { Market } from "../types";

/**
 * What the demo wallet is given on the local cluster: SOL for fees, bounties
 * and SOL-paid offers; the stablecoins to buy with; and of each token on the
 * book about as much as the stablecoins would buy, so a newcomer can both
 * take asks and fill bids. Raw amounts, bigint throughout.
 */
export interface FundingPlan {
  lamports: bigint;
  tokens: { mint: string; raw: bigint }[];
}

export const DEMO_LAMPORTS = 100n * 10n ** 9n;
/** Whole units of each stablecoin given. */
const STABLE_WHOLE = 1_000_000n;
/** What each token's share is worth, in whole units of the market's payment mint (by symbol). */
const TOKEN_BUDGET_WHOLE: Record<string, bigint> = { USDC: 100_000n, USDT: 100_000n, SOL: 500n };
/** A token with no price on the book: this many whole units (when its decimals are known; else none). */
const UNPRICED_TOKEN_WHOLE = 1_000n;

/** USDC (mainnet's and devnet's: the local cluster runs markets in both), USDT; wrapped SOL is SOL, airdropped as such. */
const STABLECOINS = PAYMENT_MINTS.filter((m) => m.symbol !== "SOL");
const PAYMENT_BY_ADDRESS = new Map(PAYMENT_MINTS.map((m) => [m.address, m]));

/** Raw token units that `budgetRaw` raw payment units buy at `pricePerToken / 10^priceScale` (raw payment per raw token). */
function tokensForBudget(budgetRaw: bigint, price: { pricePerToken: string; priceScale: number }): bigint | null {
  const perToken = BigInt(price.pricePerToken);
  if (perToken <= 0n) return null;
  return (budgetRaw * 10n ** BigInt(price.priceScale)) / perToken;
}

/** The mints a plan needs decimals for: tokens with no price on the book. */
export function unpricedTokenMints(markets: readonly Market[]): string[] {
  const priced = new Set(markets.filter((m) => m.bestAsk ?? m.bestBid).map((m) => m.tokenMint));
  return [...new Set(markets.map((m) => m.tokenMint))].filter((mint) => !priced.has(mint) && !PAYMENT_BY_ADDRESS.has(mint));
}

/** `decimals`: of the unpriced tokens (unpricedTokenMints); one without is left out. */
export function demoFundingPlan(markets: readonly Market[], decimals: ReadonlyMap<string, number | null> = new Map()): FundingPlan {
  const amounts = new Map<string, bigint>(STABLECOINS.map((m) => [m.address, STABLE_WHOLE * 10n ** BigInt(m.decimals)]));
  const tokenAmounts = new Map<string, bigint>();
  for (const market of markets) {
    if (amounts.has(market.tokenMint) || PAYMENT_BY_ADDRESS.has(market.tokenMint)) continue;
    const payment = PAYMENT_BY_ADDRESS.get(market.paymentMint);
    const price = market.bestAsk ?? market.bestBid;
    const budget = payment ? (TOKEN_BUDGET_WHOLE[payment.symbol] ?? 0n) * 10n ** BigInt(payment.decimals) : 0n;
    const tokenDecimals = decimals.get(market.tokenMint);
    const unpriced = tokenDecimals === undefined || tokenDecimals === null ? null : UNPRICED_TOKEN_WHOLE * 10n ** BigInt(tokenDecimals);
    const raw = (price && budget > 0n ? tokensForBudget(budget, price) : null) ?? unpriced;
    if (raw === null) continue;
    tokenAmounts.set(market.tokenMint, raw > (tokenAmounts.get(market.tokenMint) ?? 0n) ? raw : tokenAmounts.get(market.tokenMint)!);
  }
  for (const [mint, raw] of tokenAmounts) amounts.set(mint, raw > U64_MAX ? U64_MAX : raw > 0n ? raw : 1n);
  return { lamports: DEMO_LAMPORTS, tokens: [...amounts].map(([mint, raw]) => ({ mint, raw })) };
}
