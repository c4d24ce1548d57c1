import type { Address } from "./bytes";
import { OFFER_PROGRAM_ERRORS, type OfferProgramErrorName } from "./errors";
import type { OfferAccount } from "./offer-account";
import { checkTakeOffer, type TakeAmounts, takeAmounts } from "./pricing";
import { formatUnits, parseUnits } from "./units";

/** What a take needs to know of its offer: the terms the program checks and the mints that move. */
export type TakeTerms = Pick<
  OfferAccount,
  "side" | "state" | "expiresAt" | "remainingSize" | "minFill" | "pricePerToken" | "priceScale" | "tokenMint" | "paymentMint"
>;

export interface TakeBounds {
  /** The smallest fill the program accepts (at least 1 raw unit: a zero fill moves nothing). */
  min: bigint;
  max: bigint;
  /** The remainder is at or below min_fill: the only fill left is the whole remainder (the dust rule). */
  remainderOnly: boolean;
}

/** take_offer's accepted fill range: [max(minFill, 1), remainingSize], or exactly the remainder once it is dust. */
export function takeBounds(offer: Pick<TakeTerms, "remainingSize" | "minFill">): TakeBounds {
  const remainderOnly = offer.remainingSize <= offer.minFill;
  const floor = offer.minFill > 0n ? offer.minFill : 1n;
  return { min: remainderOnly ? offer.remainingSize : floor, max: offer.remainingSize, remainderOnly };
}

export interface MintAmount {
  mint: Address;
  amount: bigint;
}

export interface TakePreview {
  ok: true;
  fillAmount: bigint;
  amounts: TakeAmounts;
  takerPays: MintAmount;
  takerReceives: MintAmount;
  makerReceives: MintAmount;
  /** To the treasury, in the payment mint. */
  fee: MintAmount;
  /** The fill takes the whole remainder: the offer becomes filled. */
  completes: boolean;
  /** The fill leaves a remainder below min_fill, which the next taker must take whole. */
  leavesDust: boolean;
}

export interface TakeRefusal {
  ok: false;
  reason: string;
  /** The program's error this fill would raise, when it parses. */
  error?: OfferProgramErrorName;
  fillAmount?: bigint;
}

/**
 * What taking `fillAmount` raw tokens of the offer moves, with the program's
 * own arithmetic (takeAmounts) and checks (checkTakeOffer): a sell offer's
 * taker pays the gross payment and receives tokens, the maker the net; a buy
 * offer's taker delivers tokens and receives the net, the maker the tokens.
 */
export function previewTakeRaw(offer: TakeTerms, fillAmount: bigint, now: bigint): TakePreview | TakeRefusal {
  if (fillAmount <= 0n) return { ok: false, reason: "Enter an amount above zero", fillAmount };
  const error = checkTakeOffer(offer, fillAmount, now);
  if (error) return { ok: false, reason: OFFER_PROGRAM_ERRORS[error].message, error, fillAmount };
  const amounts = takeAmounts(fillAmount, offer.pricePerToken, offer.priceScale);
  const tokens = { mint: offer.tokenMint, amount: fillAmount };
  const gross = { mint: offer.paymentMint, amount: amounts.paymentAmount };
  const net = { mint: offer.paymentMint, amount: amounts.netAmount };
  const left = offer.remainingSize - fillAmount;
  return {
    ok: true,
    fillAmount,
    amounts,
    takerPays: offer.side === "sell" ? gross : tokens,
    takerReceives: offer.side === "sell" ? tokens : net,
    makerReceives: offer.side === "sell" ? net : tokens,
    fee: { mint: offer.paymentMint, amount: amounts.feeAmount },
    completes: left === 0n,
    leavesDust: left > 0n && left < offer.minFill,
  };
}

/** previewTakeRaw for an amount typed in whole tokens; refuses text that is not a number or is finer than the mint. */
export function previewTake(offer: TakeTerms, amountText: string, tokenDecimals: number, now: bigint): TakePreview | TakeRefusal {
  let fillAmount: bigint;
  try {
    fillAmount = parseUnits(amountText, tokenDecimals);
  } catch {
    return { ok: false, reason: `Enter a number with at most ${tokenDecimals} decimals` };
  }
  const preview = previewTakeRaw(offer, fillAmount, now);
  if (preview.ok || !preview.error) return preview;
  const bounds = takeBounds(offer);
  const range = bounds.remainderOnly
    ? `only the whole remainder, ${formatUnits(bounds.max, tokenDecimals)}, can be taken`
    : `take between ${formatUnits(bounds.min, tokenDecimals)} and ${formatUnits(bounds.max, tokenDecimals)}`;
  const wrongAmount = preview.error === "FillBelowMinimum" || preview.error === "FillExceedsRemaining";
  return wrongAmount ? { ...preview, reason: `${preview.reason}: ${range}` } : preview;
}
