import { PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { cancelOfferInstruction, closeOfferInstruction, createOfferInstruction, expireOfferInstruction, takeOfferInstruction } from "./builders";
import type { CreateOfferArgs } from "./instruction-data";
import type { OfferAccount } from "./offer-account";
import type { InstructionGroup } from "./packing";
import { findOfferAddress } from "./pda";
import { offerTotal } from "./pricing";
import { ensureTokenAccount, isWrappedSol, unwrapSolInstruction, wrapSolInstructions } from "./token-accounts";

/**
 * Each action's instructions in the order they run: the associated token
 * accounts it needs made sure of (createIdempotent), SOL wrapped into a
 * wrapped-SOL account before the program spends it and unwrapped after, and the
 * offer-program instruction itself. Compute budget comes on top (compute-budget.ts).
 */

/** The token program that owns each mint involved, as read from the mint accounts. */
export type TokenProgramOf = (mint: PublicKey) => PublicKey;

type OfferParties = Pick<OfferAccount, "maker" | "tokenMint" | "paymentMint" | "side">;

/** A sell offer escrows its tokens, a buy offer its payment total (docs/program.md#create_offer). */
export function escrowMintOf(offer: Pick<OfferAccount, "side" | "tokenMint" | "paymentMint">): string {
  return offer.side === "sell" ? offer.tokenMint : offer.paymentMint;
}

export interface TakeTransactionInput {
  programId: PublicKey;
  treasury: PublicKey;
  taker: PublicKey;
  offerAddress: PublicKey;
  offer: OfferParties;
  escrow: PublicKey;
  fillAmount: bigint;
  /** The gross payment of this fill (takeAmounts): what a sell offer's taker wraps when paying in SOL. */
  paymentAmount: bigint;
  tokenProgramOf: TokenProgramOf;
}

export function takeInstructions(input: TakeTransactionInput): TransactionInstruction[] {
  const { taker, offer } = input;
  const tokenMint = new PublicKey(offer.tokenMint);
  const paymentMint = new PublicKey(offer.paymentMint);
  const maker = new PublicKey(offer.maker);
  const tokenProgram = input.tokenProgramOf(tokenMint);
  const paymentProgram = input.tokenProgramOf(paymentMint);
  const takerToken = ensureTokenAccount(taker, taker, tokenMint, tokenProgram);
  const takerPayment = ensureTokenAccount(taker, taker, paymentMint, paymentProgram);
  const makerReceive =
    offer.side === "sell" ? ensureTokenAccount(taker, maker, paymentMint, paymentProgram) : ensureTokenAccount(taker, maker, tokenMint, tokenProgram);
  const treasuryPayment = ensureTokenAccount(taker, input.treasury, paymentMint, paymentProgram);
  const paysInSol = isWrappedSol(paymentMint);

  const out: TransactionInstruction[] = [];
  // The taker receives into one account and pays from the other; with SOL both ends of the payment need the wrapped account.
  if (offer.side === "sell") out.push(takerToken.instruction);
  if (offer.side === "buy" || paysInSol) out.push(takerPayment.instruction);
  out.push(makerReceive.instruction, treasuryPayment.instruction);
  if (paysInSol && offer.side === "sell") out.push(...wrapSolInstructions(taker, takerPayment.address, input.paymentAmount));
  out.push(
    takeOfferInstruction(
      input.programId,
      {
        taker,
        offer: input.offerAddress,
        maker,
        tokenMint,
        paymentMint,
        escrow: input.escrow,
        takerTokenAccount: takerToken.address,
        takerPaymentAccount: takerPayment.address,
        makerReceiveAccount: makerReceive.address,
        treasuryPaymentAccount: treasuryPayment.address,
        tokenProgram,
      },
      { fillAmount: input.fillAmount },
    ),
  );
  if (paysInSol) out.push(unwrapSolInstruction(taker, takerPayment.address));
  return out;
}

export interface CreateTransactionInput {
  programId: PublicKey;
  maker: PublicKey;
  tokenMint: PublicKey;
  paymentMint: PublicKey;
  args: CreateOfferArgs;
  /** Where the escrow goes (derivedEscrowAddress for the offer). */
  escrowFor: (offer: PublicKey, tokenProgram: PublicKey) => PublicKey;
  tokenProgramOf: TokenProgramOf;
}

export function createInstructions(input: CreateTransactionInput): { offer: PublicKey; instructions: TransactionInstruction[] } {
  const { maker, args } = input;
  const offer = findOfferAddress(input.programId, maker, args.nonce).address;
  const tokenProgram = input.tokenProgramOf(input.tokenMint);
  const escrowMint = args.side === "sell" ? input.tokenMint : input.paymentMint;
  const source = ensureTokenAccount(maker, maker, escrowMint, input.tokenProgramOf(escrowMint));
  const wrapsSol = isWrappedSol(escrowMint);
  const out: TransactionInstruction[] = [];
  if (wrapsSol) out.push(source.instruction, ...wrapSolInstructions(maker, source.address, offerTotal(args.size, args.pricePerToken, args.priceScale)));
  out.push(
    createOfferInstruction(
      input.programId,
      {
        maker,
        offer,
        tokenMint: input.tokenMint,
        paymentMint: input.paymentMint,
        escrow: input.escrowFor(offer, tokenProgram),
        makerSource: source.address,
        tokenProgram,
      },
      args,
    ),
  );
  if (wrapsSol) out.push(unwrapSolInstruction(maker, source.address));
  return { offer, instructions: out };
}

export interface RefundInput {
  programId: PublicKey;
  offerAddress: PublicKey;
  offer: OfferParties;
  escrow: PublicKey;
  tokenProgramOf: TokenProgramOf;
}

/**
 * The maker's refund account for the escrow, made sure of; `unwrap` when the
 * maker signs and the escrow is wrapped SOL.
 */
function refundParts(payer: PublicKey, input: RefundInput) {
  const maker = new PublicKey(input.offer.maker);
  const escrowMint = new PublicKey(escrowMintOf(input.offer));
  const refund = ensureTokenAccount(payer, maker, escrowMint, input.tokenProgramOf(escrowMint));
  const tokenProgram = input.tokenProgramOf(new PublicKey(input.offer.tokenMint));
  return { maker, escrowMint, refund, tokenProgram };
}

/** cancel_offer by the maker, with the escrow refunded (and unwrapped when it is SOL), as a group for packing. */
export function cancelInstructionGroup(input: RefundInput): InstructionGroup {
  const { maker, escrowMint, refund, tokenProgram } = refundParts(new PublicKey(input.offer.maker), input);
  const cancel = cancelOfferInstruction(input.programId, {
    maker,
    offer: input.offerAddress,
    escrow: input.escrow,
    makerRefundAccount: refund.address,
    tokenProgram,
  });
  return { setup: [refund.instruction], main: [cancel], teardown: isWrappedSol(escrowMint) ? [unwrapSolInstruction(maker, refund.address)] : [] };
}

export function cancelInstructions(input: RefundInput): TransactionInstruction[] {
  const group = cancelInstructionGroup(input);
  return [...(group.setup ?? []), ...group.main, ...(group.teardown ?? [])];
}

/** expire_offer by any cranker, who pays for the maker's refund account if it is missing and earns the bounty. */
export function expireInstructions(input: RefundInput & { cranker: PublicKey }): TransactionInstruction[] {
  const { maker, refund, tokenProgram } = refundParts(input.cranker, input);
  return [
    refund.instruction,
    expireOfferInstruction(input.programId, {
      cranker: input.cranker,
      offer: input.offerAddress,
      maker,
      escrow: input.escrow,
      makerRefundAccount: refund.address,
      tokenProgram,
    }),
  ];
}

export function closeInstructions(programId: PublicKey, maker: PublicKey, offerAddress: PublicKey): TransactionInstruction[] {
  return [closeOfferInstruction(programId, { maker, offer: offerAddress })];
}
