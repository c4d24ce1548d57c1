/**
 * Error codes for the checks docs/program.md lists. The interface names the checks but
 * not their numbers; these are the numbers the local cluster reports in
 * `{"InstructionError":[i,{"Custom":n}]}`, in Anchor's custom range (6000+).
 * The indexer only needs to know that `meta.err` is non-null.
 */
export const OFFER_PROGRAM_ERRORS = {
  InvalidSize: { code: 6000, message: "Size must be greater than zero" },
  InvalidPrice: { code: 6001, message: "Price must be greater than zero" },
  InvalidPriceScale: { code: 6002, message: "Price scale must be at most 18" },
  InexactTotal: { code: 6003, message: "size * price_per_token is not divisible by 10^price_scale" },
  MinFillTooLarge: { code: 6004, message: "Minimum fill exceeds the offer size" },
  InvalidExpiry: { code: 6005, message: "Expiry must be in the future and at most 30 days away" },
  PaymentMintNotAccepted: { code: 6006, message: "Payment mint is not accepted" },
  InvalidSide: { code: 6007, message: "Side must be 0 (sell) or 1 (buy)" },
  OfferNotActive: { code: 6008, message: "Offer is not active" },
  OfferExpired: { code: 6009, message: "Offer has expired" },
  FillExceedsRemaining: { code: 6010, message: "Fill amount exceeds the remaining size" },
  FillBelowMinimum: { code: 6011, message: "Fill amount is below the minimum fill" },
  OfferNotExpired: { code: 6012, message: "Offer has not expired yet" },
  OfferStillActive: { code: 6013, message: "Offer is still active" },
  ArithmeticOverflow: { code: 6014, message: "Arithmetic overflow" },
} as const;

export type OfferProgramErrorName = keyof typeof OFFER_PROGRAM_ERRORS;

/** Anchor's framework errors the local cluster raises for account constraint failures. */
export const ANCHOR_ERRORS = {
  InstructionDidNotDeserialize: { code: 102, message: "The program could not deserialize the given instruction" },
  InstructionFallbackNotFound: { code: 101, message: "Fallback functions are not supported" },
  ConstraintHasOne: { code: 2001, message: "A has one constraint was violated" },
  ConstraintSeeds: { code: 2006, message: "A seeds constraint was violated" },
  AccountDiscriminatorMismatch: { code: 3002, message: "Account discriminator did not match what was expected" },
  AccountNotEnoughKeys: { code: 3005, message: "Not enough account keys given to the instruction" },
  AccountNotSigner: { code: 3010, message: "The given account did not sign" },
  AccountNotInitialized: { code: 3012, message: "The program expected this account to be already initialized" },
  AccountAlreadyInUse: { code: 0, message: "Allocate: account already in use" },
} as const;

export type AnchorErrorName = keyof typeof ANCHOR_ERRORS;

const NAME_BY_CODE = new Map<number, string>(
  [...Object.entries(OFFER_PROGRAM_ERRORS), ...Object.entries(ANCHOR_ERRORS)].map(([name, e]) => [e.code, name]),
);

export function programErrorName(code: number): string | undefined {
  return NAME_BY_CODE.get(code);
}
