import bs58 from "bs58";
import {
  ANCHOR_ERRORS,
  type AnchorErrorName,
  checkCancelOffer,
  checkCloseOffer,
  checkCreateOffer,
  checkExpireOffer,
  checkTakeOffer,
  type DecodedInstruction,
  decodeInstructionData,
  encodeOfferAccount,
  EXPIRY_BOUNTY_LAMPORTS,
  INSTRUCTION_ACCOUNT_SLOTS,
  instructionNameOf,
  nameInstructionAccounts,
  OFFER_ACCOUNT_SIZE,
  OFFER_PROGRAM_ERRORS,
  type OfferAccount,
  type OfferProgramErrorName,
  offerTotal,
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  takeAmounts,
} from "../../lib/program";
import type { ProgramIds } from "./execution-types";
import { consume, failedLine, type Frame, indexOf, InstructionFailure, interned, invokeLine, successLine } from "./frame";
import { offerOf, rememberOffer } from "./offer-cache";
import { cachedOfferAddress } from "./pda-cache";
import { type AccountsState, rentExemptLamports } from "./state";
import { tokenTransfer } from "./token-cpi";
import { encodeTokenAccount, tokenAccountAmount } from "./tokens";
import { isSignerIndex } from "./wire";

/**
 * The offer-book program (docs/program.md) as the cluster plays it: each
 * instruction's account checks, rules, token movements, logs and effects,
 * failing with the program's and Anchor's own error codes and log lines.
 */
function fail(name: OfferProgramErrorName): never {
  throw failure(OFFER_PROGRAM_ERRORS[name].code, name, OFFER_PROGRAM_ERRORS[name].message);
}

let pendingLog: string | null = null;
function failure(code: number, name: string, message: string, account?: string): InstructionFailure {
  pendingLog = interned(
    `a${code}${account ?? ""}`,
    () => `Program log: AnchorError ${account ? `caused by account: ${account}` : "occurred"}. Error Code: ${name}. Error Number: ${code}. Error Message: ${message}.`,
  );
  return new InstructionFailure({ Custom: code });
}

function anchorFail(name: AnchorErrorName, account?: string): never {
  throw failure(ANCHOR_ERRORS[name].code, name, ANCHOR_ERRORS[name].message, account);
}

const INSTRUCTION_LOG_LINES = {
  create_offer: "Program log: Instruction: CreateOffer",
  take_offer: "Program log: Instruction: TakeOffer",
  cancel_offer: "Program log: Instruction: CancelOffer",
  expire_offer: "Program log: Instruction: ExpireOffer",
  close_offer: "Program log: Instruction: CloseOffer",
} as const;

const BASE_UNITS = { create_offer: 21_000, take_offer: 17_500, cancel_offer: 12_000, expire_offer: 12_500, close_offer: 6_500 } as const;

export function executeOfferProgram(
  state: AccountsState,
  programs: ProgramIds,
  frame: Frame,
  accountIndexes: number[],
  data: Uint8Array,
  depth: number,
): void {
  pendingLog = null;
  try {
    const name = instructionNameOf(data);
    if (name === null) anchorFail("InstructionFallbackNotFound");
    frame.logs.push(INSTRUCTION_LOG_LINES[name]);
    const decoded = decodeInstructionData(data);
    if (decoded === null) anchorFail("InstructionDidNotDeserialize");
    const addresses = accountIndexes.map((i) => frame.keys[i] as string);
    const accounts = nameInstructionAccounts(decoded.name, addresses);
    if (accounts === null) anchorFail("AccountNotEnoughKeys");
    const slots = INSTRUCTION_ACCOUNT_SLOTS[decoded.name];
    slots.forEach((slot, i) => {
      const index = accountIndexes[i] as number;
      if (slot.signer && !isSignerIndex(frame.message, index)) anchorFail("AccountNotSigner", slot.role);
    });
    consume(frame, BASE_UNITS[decoded.name]);
    const instruction = { ...decoded, accounts } as DecodedInstruction;
    const ctx: OfferContext = { state, programs, frame, depth, now: BigInt(frame.block.blockTime) };
    switch (instruction.name) {
      case "create_offer":
        return createOffer(ctx, instruction);
      case "take_offer":
        return takeOffer(ctx, instruction);
      case "cancel_offer":
      case "expire_offer":
      case "close_offer":
        return endOffer(ctx, instruction);
    }
  } catch (e) {
    if (pendingLog) frame.logs.push(pendingLog);
    pendingLog = null;
    throw e;
  }
}

interface OfferContext {
  state: AccountsState;
  programs: ProgramIds;
  frame: Frame;
  depth: number;
  now: bigint;
}

function loadOffer(ctx: OfferContext, address: string): OfferAccount {
  const record = ctx.state.get(address);
  if (!record) anchorFail("AccountNotInitialized", "offer");
  if (record.owner !== ctx.programs.programId) throw failure(3007, "AccountOwnedByWrongProgram", "The given account is owned by a different program than expected", "offer");
  const offer = offerOf(record);
  if (!offer) anchorFail("AccountDiscriminatorMismatch", "offer");
  return offer;
}

function storeOffer(ctx: OfferContext, address: string, offer: OfferAccount, lamportsDelta = 0): void {
  const record = ctx.state.get(address);
  const lamports = (record?.lamports ?? 0) + lamportsDelta;
  const next = { lamports, owner: ctx.programs.programId, data: encodeOfferAccount(offer), executable: false };
  rememberOffer(next, offer);
  ctx.state.set(address, next);
}

function createOffer(ctx: OfferContext, ix: Extract<DecodedInstruction, { name: "create_offer" }>): void {
  const { state, frame, programs } = ctx;
  const { args, accounts } = ix;
  const pda = cachedOfferAddress(programs.programId, accounts.maker, args.nonce);
  if (pda.address !== accounts.offer) anchorFail("ConstraintSeeds", "offer");

  const rent = rentExemptLamports(OFFER_ACCOUNT_SIZE);
  const lamports = rent + Number(EXPIRY_BOUNTY_LAMPORTS);
  // Anchor's `init`: a system-program CPI that creates the account, failing if it exists.
  const createData = new Uint8Array(52);
  const view = new DataView(createData.buffer);
  view.setUint32(0, 0, true);
  view.setBigUint64(4, BigInt(rent), true);
  view.setBigUint64(12, BigInt(OFFER_ACCOUNT_SIZE), true);
  createData.set(bs58.decode(programs.programId), 20);
  frame.inner.push({
    programIdIndex: indexOf(frame, SYSTEM_PROGRAM_ADDRESS),
    accounts: [indexOf(frame, accounts.maker), indexOf(frame, accounts.offer)],
    data: createData,
    stackHeight: ctx.depth + 1,
  });
  frame.logs.push(invokeLine(SYSTEM_PROGRAM_ADDRESS, ctx.depth + 1));
  if (state.get(accounts.offer)) {
    frame.logs.push(`Allocate: account Address { address: ${accounts.offer}, base: None } already in use`);
    frame.logs.push(failedLine(SYSTEM_PROGRAM_ADDRESS, "custom program error: 0x0"));
    throw new InstructionFailure({ Custom: 0 });
  }
  if (state.lamports(accounts.maker) < rent) {
    frame.logs.push(`Transfer: insufficient lamports ${state.lamports(accounts.maker)}, need ${rent}`);
    frame.logs.push(failedLine(SYSTEM_PROGRAM_ADDRESS, "custom program error: 0x1"));
    throw new InstructionFailure({ Custom: 1 });
  }
  frame.logs.push(successLine(SYSTEM_PROGRAM_ADDRESS));

  const problem = checkCreateOffer(args, { now: ctx.now, paymentMint: accounts.paymentMint });
  if (problem) fail(problem);

  const offer: OfferAccount = {
    maker: accounts.maker,
    tokenMint: accounts.tokenMint,
    paymentMint: accounts.paymentMint,
    side: args.side,
    nonce: args.nonce,
    originalSize: args.size,
    remainingSize: args.size,
    pricePerToken: args.pricePerToken,
    priceScale: args.priceScale,
    minFill: args.minFill,
    createdAt: ctx.now,
    expiresAt: args.expiresAt,
    state: "active",
    bump: pda.bump,
  };
  state.addLamports(accounts.maker, -lamports);
  storeOffer(ctx, accounts.offer, offer, lamports);

  const escrowMint = args.side === "sell" ? accounts.tokenMint : accounts.paymentMint;
  const escrowAmount = args.side === "sell" ? args.size : offerTotal(args.size, args.pricePerToken, args.priceScale);
  if (!state.get(accounts.escrow)) {
    const tokenProgram = accounts.tokenProgram;
    const data = encodeTokenAccount({
      mint: bs58.decode(escrowMint),
      owner: bs58.decode(accounts.offer),
      amount: 0n,
      kind: tokenProgram === TOKEN_2022_PROGRAM_ADDRESS ? "token-2022" : "spl-token",
    });
    const escrowRent = rentExemptLamports(data.length);
    state.addLamports(accounts.maker, -escrowRent);
    state.set(accounts.escrow, { lamports: escrowRent, owner: tokenProgram, data, executable: false });
  }
  tokenTransfer(ctx, {
    tokenProgram: accounts.tokenProgram,
    source: accounts.makerSource,
    destination: accounts.escrow,
    authority: accounts.maker,
    amount: escrowAmount,
    mint: escrowMint,
  });
  frame.effects.push({ kind: "create", offer: accounts.offer, account: offer });
}

function tokenOwner(state: AccountsState, address: string): string | null {
  const record = state.get(address);
  return record && record.data.length >= 64 ? bs58.encode(record.data.subarray(32, 64)) : null;
}

function takeOffer(
  ctx: OfferContext,
  ix: Extract<DecodedInstruction, { name: "take_offer" }>,
): void {
  const { state, frame, programs } = ctx;
  const { accounts } = ix;
  const offer = loadOffer(ctx, accounts.offer);
  if (offer.maker !== accounts.maker) anchorFail("ConstraintHasOne", "maker");
  if (offer.tokenMint !== accounts.tokenMint) anchorFail("ConstraintHasOne", "token_mint");
  if (offer.paymentMint !== accounts.paymentMint) anchorFail("ConstraintHasOne", "payment_mint");
  if (tokenOwner(state, accounts.treasuryPaymentAccount) !== programs.treasury) {
    throw failure(2015, "ConstraintTokenOwner", "A token owner constraint was violated", "treasury_payment_account");
  }
  const problem = checkTakeOffer(offer, ix.args.fillAmount, ctx.now);
  if (problem) fail(problem);

  const amounts = takeAmounts(ix.args.fillAmount, offer.pricePerToken, offer.priceScale);
  const t = accounts.tokenProgram;
  if (offer.side === "sell") {
    tokenTransfer(ctx, { tokenProgram: t, source: accounts.takerPaymentAccount, destination: accounts.makerReceiveAccount, authority: accounts.taker, amount: amounts.netAmount, mint: accounts.paymentMint });
    tokenTransfer(ctx, { tokenProgram: t, source: accounts.takerPaymentAccount, destination: accounts.treasuryPaymentAccount, authority: accounts.taker, amount: amounts.feeAmount, mint: accounts.paymentMint });
    tokenTransfer(ctx, { tokenProgram: t, source: accounts.escrow, destination: accounts.takerTokenAccount, authority: accounts.offer, amount: amounts.fillAmount, mint: accounts.tokenMint });
  } else {
    tokenTransfer(ctx, { tokenProgram: t, source: accounts.takerTokenAccount, destination: accounts.makerReceiveAccount, authority: accounts.taker, amount: amounts.fillAmount, mint: accounts.tokenMint });
    tokenTransfer(ctx, { tokenProgram: t, source: accounts.escrow, destination: accounts.takerPaymentAccount, authority: accounts.offer, amount: amounts.netAmount, mint: accounts.paymentMint });
    tokenTransfer(ctx, { tokenProgram: t, source: accounts.escrow, destination: accounts.treasuryPaymentAccount, authority: accounts.offer, amount: amounts.feeAmount, mint: accounts.paymentMint });
  }

  const remainingSize = offer.remainingSize - ix.args.fillAmount;
  const updated: OfferAccount = { ...offer, remainingSize, state: remainingSize === 0n ? "filled" : "active" };
  const bounty = Number(EXPIRY_BOUNTY_LAMPORTS);
  if (updated.state === "filled") {
    storeOffer(ctx, accounts.offer, updated, -bounty);
    state.addLamports(accounts.maker, bounty);
  } else {
    storeOffer(ctx, accounts.offer, updated);
  }
  const inCpi = ctx.depth > 1;
  frame.effects.push({
    kind: "take",
    offer: accounts.offer,
    account: updated,
    fill: {
      signature: frame.signature,
      slot: frame.block.slot,
      blockTime: frame.block.blockTime,
      outerIndex: frame.outerIndex,
      // The take's own entry was pushed to frame.inner by the invoker just before this ran.
      innerIndex: inCpi ? frame.cpiInvokeIndex : null,
      executionIndex: 0,
      offer: accounts.offer,
      maker: offer.maker,
      taker: accounts.taker,
      tokenMint: offer.tokenMint,
      paymentMint: offer.paymentMint,
      side: offer.side,
      fillAmount: amounts.fillAmount,
      paymentAmount: amounts.paymentAmount,
      feeAmount: amounts.feeAmount,
    },
  });
}

function refundEscrow(ctx: OfferContext, offerAddress: string, escrow: string, refundTo: string, tokenProgram: string): void {
  const record = ctx.state.get(escrow);
  const amount = record && record.data.length >= 72 ? tokenAccountAmount(record.data) : 0n;
  tokenTransfer(ctx, { tokenProgram, source: escrow, destination: refundTo, authority: offerAddress, amount });
}

/**
 * What cancel_offer and expire_offer share once checked: the escrow goes back
 * to the maker, the offer ends, and the expiry bounty it held goes to
 * `bountyTo` (the maker on a cancel, the cranker on an expiry).
 */
function endOfferAccount(
  ctx: OfferContext,
  accounts: { offer: string; escrow: string; makerRefundAccount: string; tokenProgram: string },
  offer: OfferAccount,
  kind: "cancel" | "expire",
  bountyTo: string,
): void {
  refundEscrow(ctx, accounts.offer, accounts.escrow, accounts.makerRefundAccount, accounts.tokenProgram);
  const updated: OfferAccount = { ...offer, state: kind === "cancel" ? "cancelled" : "expired" };
  const bounty = Number(EXPIRY_BOUNTY_LAMPORTS);
  storeOffer(ctx, accounts.offer, updated, -bounty);
  ctx.state.addLamports(bountyTo, bounty);
  ctx.frame.effects.push({ kind, offer: accounts.offer, account: updated });
}

type EndingInstruction = Extract<DecodedInstruction, { name: "cancel_offer" | "expire_offer" | "close_offer" }>;

/** cancel_offer, expire_offer and close_offer: the same offer and maker checks, then each its own rule and ending. */
function endOffer(ctx: OfferContext, ix: EndingInstruction): void {
  const offer = loadOffer(ctx, ix.accounts.offer);
  if (offer.maker !== ix.accounts.maker) anchorFail("ConstraintHasOne", "maker");
  const problem =
    ix.name === "cancel_offer" ? checkCancelOffer(offer) : ix.name === "expire_offer" ? checkExpireOffer(offer, ctx.now) : checkCloseOffer(offer);
  if (problem) fail(problem);
  switch (ix.name) {
    case "cancel_offer":
      return endOfferAccount(ctx, ix.accounts, offer, "cancel", ix.accounts.maker);
    case "expire_offer":
      return endOfferAccount(ctx, ix.accounts, offer, "expire", ix.accounts.cranker);
    case "close_offer": {
      const lamports = ctx.state.lamports(ix.accounts.offer);
      ctx.state.set(ix.accounts.offer, undefined);
      ctx.state.addLamports(ix.accounts.maker, lamports);
      ctx.frame.effects.push({ kind: "close", offer: ix.accounts.offer });
    }
  }
}
