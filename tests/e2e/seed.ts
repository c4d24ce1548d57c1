import type postgres from "postgres";
import { parseUnits } from "../../lib/program/units";
import { exactSizeStep, scaledPriceFromHuman, takeAmounts } from "../../lib/program/pricing";
import { endOffer, insertOffer, recordFill, type NewOffer } from "../../lib/db/writes";
import { addressOf, signatureOf, USDC, USDT, WSOL } from "../helpers/fixtures";

// A small, realistic market for the browser tests and for development:
// three known pairs, one pair whose token nobody knows (decimals unknown),
// offers in every status, and fills spread over the last day.

export const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
export const BONK = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
export const WIF = "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm";
/** Valid, and unknown to the token stand-in and (without an RPC) to the chain. */
export const MYSTERY = "7iNRzt9zAutPM1tBD5ChQLmvf17RAqeyqVfBU1hWMLt5";

export const DECIMALS: Record<string, number> = { [JUP]: 6, [BONK]: 5, [WIF]: 6, [USDC]: 6, [USDT]: 6, [WSOL]: 9 };

export const MAKER_A = addressOf("e2e:maker:alice");
export const MAKER_B = addressOf("e2e:maker:bob");
export const MAKER_C = addressOf("e2e:maker:carol");
export const TAKER_X = addressOf("e2e:taker:xavier");
export const TAKER_Y = addressOf("e2e:taker:yuki");

interface OfferSpec {
  label: string;
  maker: string;
  token: string;
  payment: string;
  side: "sell" | "buy";
  /** Payment per whole token. */
  price: string;
  /** Whole tokens (rounded up to the exact-total step). */
  size: string;
  ageHours: number;
  expiresInHours?: number;
  end?: "cancelled" | "expired";
  /** Fractions of the original size taken, oldest first, each with hours ago and taker. */
  takes?: { share: number; hoursAgo: number; taker: string }[];
}

const MYSTERY_DECIMALS = 6; // what the chain would say; the UI is not told

const SPECS: OfferSpec[] = [
  // JUP / USDC: the busy book.
  { label: "jup-ask-1", maker: MAKER_A, token: JUP, payment: USDC, side: "sell", price: "0.8512", size: "1200", ageHours: 20, takes: [{ share: 0.25, hoursAgo: 18, taker: TAKER_X }, { share: 0.1, hoursAgo: 9, taker: TAKER_Y }] },
  { label: "jup-ask-2", maker: MAKER_B, token: JUP, payment: USDC, side: "sell", price: "0.8575", size: "5400", ageHours: 16 },
  { label: "jup-ask-3", maker: MAKER_C, token: JUP, payment: USDC, side: "sell", price: "0.87", size: "2500", ageHours: 12, takes: [{ share: 0.4, hoursAgo: 6, taker: TAKER_X }] },
  { label: "jup-ask-4", maker: MAKER_B, token: JUP, payment: USDC, side: "sell", price: "0.905", size: "12000", ageHours: 30 },
  { label: "jup-bid-1", maker: MAKER_C, token: JUP, payment: USDC, side: "buy", price: "0.8431", size: "3000", ageHours: 22, takes: [{ share: 0.3, hoursAgo: 15, taker: TAKER_Y }, { share: 0.2, hoursAgo: 3, taker: TAKER_X }] },
  { label: "jup-bid-2", maker: MAKER_A, token: JUP, payment: USDC, side: "buy", price: "0.835", size: "8000", ageHours: 10 },
  { label: "jup-bid-3", maker: MAKER_B, token: JUP, payment: USDC, side: "buy", price: "0.81", size: "20000", ageHours: 40 },
  { label: "jup-filled", maker: MAKER_A, token: JUP, payment: USDC, side: "sell", price: "0.848", size: "1000", ageHours: 23, takes: [{ share: 0.5, hoursAgo: 21, taker: TAKER_X }, { share: 0.5, hoursAgo: 12, taker: TAKER_Y }] },
  { label: "jup-cancelled", maker: MAKER_A, token: JUP, payment: USDC, side: "buy", price: "0.79", size: "500", ageHours: 26, end: "cancelled" },
  { label: "jup-lapsed", maker: MAKER_A, token: JUP, payment: USDC, side: "sell", price: "0.95", size: "750", ageHours: 50, expiresInHours: -2 },
  // Bonk / USDC: tiny prices, 5 decimals.
  { label: "bonk-ask-1", maker: MAKER_B, token: BONK, payment: USDC, side: "sell", price: "0.00002185", size: "25000000", ageHours: 8, takes: [{ share: 0.2, hoursAgo: 4, taker: TAKER_Y }] },
  { label: "bonk-ask-2", maker: MAKER_C, token: BONK, payment: USDC, side: "sell", price: "0.0000224", size: "80000000", ageHours: 5 },
  { label: "bonk-bid-1", maker: MAKER_A, token: BONK, payment: USDC, side: "buy", price: "0.0000212", size: "40000000", ageHours: 7, takes: [{ share: 0.15, hoursAgo: 2, taker: TAKER_X }] },
  // WIF / SOL: payment with 9 decimals.
  { label: "wif-ask-1", maker: MAKER_C, token: WIF, payment: WSOL, side: "sell", price: "0.0118", size: "900", ageHours: 14, takes: [{ share: 0.5, hoursAgo: 1, taker: TAKER_X }] },
  { label: "wif-bid-1", maker: MAKER_B, token: WIF, payment: WSOL, side: "buy", price: "0.0114", size: "1500", ageHours: 11 },
  { label: "wif-expired", maker: MAKER_B, token: WIF, payment: WSOL, side: "buy", price: "0.0101", size: "300", ageHours: 60, end: "expired" },
  // An unknown token against USDT: the UI shows raw units.
  { label: "mystery-ask", maker: MAKER_C, token: MYSTERY, payment: USDT, side: "sell", price: "3.5", size: "40", ageHours: 3, takes: [{ share: 0.25, hoursAgo: 0.5, taker: TAKER_Y }] },
];

export interface SeededOffer extends NewOffer {
  label: string;
}

export interface Seeded {
  offers: SeededOffer[];
  fills: number;
}

const HOUR = 3_600_000;

function roundUpTo(value: bigint, step: bigint): bigint {
  return ((value + step - 1n) / step) * step;
}

/** Writes the seed through lib/db/writes, as the worker would. `now` fixes "the last 24 hours". */
export async function seedExplorer(sql: postgres.Sql, now = Date.now()): Promise<Seeded> {
  const offers: SeededOffer[] = [];
  let slot = 1_000n;
  let fills = 0;
  for (const [i, spec] of SPECS.entries()) {
    const tokenDecimals = DECIMALS[spec.token] ?? MYSTERY_DECIMALS;
    const paymentDecimals = DECIMALS[spec.payment]!;
    const price = scaledPriceFromHuman(spec.price, tokenDecimals, paymentDecimals);
    if (!price) throw new Error(`${spec.label}: price ${spec.price} has no exact scale`);
    const size = roundUpTo(parseUnits(spec.size, tokenDecimals), exactSizeStep(price.pricePerToken, price.priceScale));
    const createdAt = new Date(now - spec.ageHours * HOUR);
    const offer: SeededOffer = {
      label: spec.label,
      pda: addressOf(`e2e:offer:${spec.label}`),
      maker: spec.maker,
      tokenMint: spec.token,
      paymentMint: spec.payment,
      side: spec.side,
      nonce: BigInt(i + 1),
      originalSize: size,
      remainingSize: size,
      pricePerToken: price.pricePerToken,
      priceScale: price.priceScale,
      minFill: size / 100n || 1n,
      createdAt: new Date(Math.floor(createdAt.getTime() / 1000) * 1000),
      expiresAt: new Date(Math.floor((now + (spec.expiresInHours ?? 24 * 7) * HOUR) / 1000) * 1000),
      lastSlot: slot,
      createdSlot: slot,
      createdSignature: signatureOf(`e2e:create:${spec.label}`),
    };
    slot += 10n;
    await insertOffer(sql, offer);
    let left = size;
    for (const [t, take] of (spec.takes ?? []).entries()) {
      const last = t === (spec.takes?.length ?? 0) - 1 && take.share >= 0.5 && spec.takes!.reduce((a, b) => a + b.share, 0) >= 1;
      let amount = last ? left : (size * BigInt(Math.round(take.share * 1000))) / 1000n;
      if (amount > left) amount = left;
      if (amount === 0n) continue;
      const amounts = takeAmounts(amount, price.pricePerToken, price.priceScale);
      await recordFill(sql, {
        signature: signatureOf(`e2e:fill:${spec.label}:${t}`),
        ixIndex: 0,
        offerPda: offer.pda,
        taker: take.taker,
        fillAmount: amounts.fillAmount,
        paymentAmount: amounts.paymentAmount,
        feeAmount: amounts.feeAmount,
        blockTime: new Date(Math.floor((now - take.hoursAgo * HOUR) / 1000) * 1000),
        slot: 5_000n + BigInt(Math.round((48 - take.hoursAgo) * 100)),
      });
      left -= amount;
      fills++;
    }
    offer.remainingSize = left;
    if (spec.end) await endOffer(sql, offer.pda, spec.end, slot + 5n);
    offers.push(offer);
  }
  return { offers, fills };
}

export const offerByLabel = (seeded: Seeded, label: string) => {
  const offer = seeded.offers.find((o) => o.label === label);
  if (!offer) throw new Error(`no seeded offer ${label}`);
  return offer;
};
