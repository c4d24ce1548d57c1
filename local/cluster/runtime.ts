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
  INSTRUCTION_DISCRIMINATORS,
  instructionNameOf,
  nameInstructionAccounts,
  OFFER_ACCOUNT_SIZE,
  OFFER_PROGRAM_ERRORS,
  type OfferAccount,
  type OfferProgramErrorName,
  type OfferSide,
  offerTotal,
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  takeAmounts,
} from "../../lib/program";
import { offerOf, rememberOffer } from "./offer-cache";
import { cachedOfferAddress } from "./pda-cache";
import { type AccountsState, rentExemptLamports, type UndoEntry } from "./state";
import { encodeTokenAccount, LOOKUP_TABLE_META_SIZE, mintDecimals, tokenAccountAmount, withTokenAccountAmount } from "./tokens";
import { type CompiledMessage, isSignerIndex } from "./wire";

export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const MEMO_PROGRAM = "MemoSq4gqABAXKKBgdXzJJcx1W9BqjmbxaPWLGxhzhs";
export const LOOKUP_TABLE_PROGRAM = "AddressLookupTab1e1111111111111111111111111";
export const LAMPORTS_PER_SIGNATURE = 5000;
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;
const MAX_COMPUTE_UNITS = 1_400_000;

export interface ProgramIds {
  /** The offer-book program the cluster plays. */
  programId: string;
  /** A program that invokes take_offer by CPI, so takes appear as inner instructions. */
  routerProgramId: string;
  /** Owner of the fee accounts take_offer must pay into. */
  treasury: string;
}

export interface BlockContext {
  slot: number;
  /** Unix seconds; the program's `now`. */
  blockTime: number;
}

export type InstructionErrorDetail = { Custom: number } | string;
export type TransactionError = { InstructionError: [number, InstructionErrorDetail] } | string;

export interface InnerInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number;
}

/** One executed take_offer: the cluster's own record, the truth the indexer is tested against. */
export interface FillRecord {
  signature: string;
  slot: number;
  blockTime: number;
  /** Index of the outer instruction that is, or invoked, the take. */
  outerIndex: number;
  /** Index within meta.innerInstructions[outer].instructions when invoked by CPI, else null. */
  innerIndex: number | null;
  /** Position among all the transaction's instructions, outer and inner, in execution order. */
  executionIndex: number;
  offer: string;
  maker: string;
  taker: string;
  tokenMint: string;
  paymentMint: string;
  side: OfferSide;
  fillAmount: bigint;
  paymentAmount: bigint;
  feeAmount: bigint;
}

export type ProgramEffect =
  | { kind: "create"; offer: string; account: OfferAccount }
  | { kind: "take"; offer: string; account: OfferAccount; fill: FillRecord }
  | { kind: "cancel" | "expire"; offer: string; account: OfferAccount }
  | { kind: "close"; offer: string };

export interface ExecutionResult {
  signature: string;
  err: TransactionError | null;
  fee: number;
  preBalances: number[];
  postBalances: number[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  innerInstructions: Array<{ index: number; instructions: InnerInstruction[] }>;
  logMessages: string[];
  computeUnitsConsumed: number;
  /** Empty when the transaction failed: a failed transaction changes nothing but the fee. */
  effects: ProgramEffect[];
  undo: UndoEntry[];
  memo: string | null;
}

export class TransactionRejected extends Error {
  constructor(
    message: string,
    readonly rpcCode = -32002,
  ) {
    super(message);
  }
}

const internedLines = new Map<string, string>();

/**
 * Log lines repeat across transactions (same programs, depths and errors);
 * sharing one string per distinct line keeps 100,000 transactions' logs small.
 */
function interned(key: string, make: () => string): string {
  let line = internedLines.get(key);
  if (line === undefined) {
    line = make();
    internedLines.set(key, line);
  }
  return line;
}
const invokeLine = (programId: string, depth: number) => interned(`i${depth}${programId}`, () => `Program ${programId} invoke [${depth}]`);
const successLine = (programId: string) => interned(`s${programId}`, () => `Program ${programId} success`);
const failedLine = (programId: string, message: string) => interned(`f${programId}${message}`, () => `Program ${programId} failed: ${message}`);
const consumedLine = (programId: string, used: number, of: number) => `Program ${programId} consumed ${used} of ${of} compute units`;

class InstructionFailure extends Error {
  constructor(readonly detail: InstructionErrorDetail) {
    super(typeof detail === "string" ? detail : `custom program error: 0x${detail.Custom.toString(16)}`);
  }
}

interface Frame {
  keys: string[];
  keyIndex: Map<string, number>;
  message: CompiledMessage;
  loadedWritableCount: number;
  logs: string[];
  remainingUnits: number;
  inner: InnerInstruction[];
  effects: ProgramEffect[];
  outerIndex: number;
  signature: string;
  block: BlockContext;
}

/**
 * Executes a signed transaction against the accounts, playing the offer-book
 * program (program.md), a router that invokes take_offer by CPI, the token
 * transfers those programs make, compute budget and memo. The state changes
 * stay applied and are returned as an undo list; a failed instruction takes
 * the whole transaction back except its fee. Signatures are the caller's
 * business: the simulator signs what it builds, sendTransaction verifies.
 */
export function executeTransaction(
  state: AccountsState,
  programs: ProgramIds,
  message: CompiledMessage,
  signature: string,
  block: BlockContext,
): ExecutionResult {
  const loadedAddresses = resolveLookups(state, message);
  const keys = [...message.staticKeys, ...loadedAddresses.writable, ...loadedAddresses.readonly];
  const keyIndex = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!keyIndex.has(k)) keyIndex.set(k, i);
  });

  const budget = computeBudget(message, keys);
  const fee = LAMPORTS_PER_SIGNATURE * message.header.numRequiredSignatures + budget.priorityFee;
  const payer = keys[0] as string;
  if (state.lamports(payer) < fee) throw new TransactionRejected("Attempt to debit an account but found no record of a prior credit.");

  const preBalances = keys.map((k) => state.lamports(k));
  const undo = state.beginJournal();
  try {
    state.addLamports(payer, -fee);
    const savepoint = undo.length;
    const logs: string[] = [];
    const innerInstructions: ExecutionResult["innerInstructions"] = [];
    const effects: ProgramEffect[] = [];
    let remainingUnits = budget.unitLimit;
    let err: TransactionError | null = null;

    for (let i = 0; i < message.instructions.length; i++) {
      const ix = message.instructions[i]!;
      const frame: Frame = {
        keys,
        keyIndex,
        message,
        loadedWritableCount: loadedAddresses.writable.length,
        logs,
        remainingUnits,
        inner: [],
        effects,
        outerIndex: i,
        signature,
        block,
      };
      try {
        invokeProgram(state, programs, frame, ix.programIdIndex, ix.accounts, ix.data, 1);
      } catch (e) {
        if (!(e instanceof InstructionFailure)) throw e;
        err = { InstructionError: [i, e.detail] };
      }
      remainingUnits = frame.remainingUnits;
      if (frame.inner.length > 0) innerInstructions.push({ index: i, instructions: frame.inner });
      if (err) break;
    }

    if (err) {
      state.rollbackJournal(undo, savepoint);
      effects.length = 0;
    }
    numberExecution(effects, innerInstructions, message.instructions.length);
    return {
      signature,
      err,
      fee,
      preBalances,
      postBalances: keys.map((k) => state.lamports(k)),
      loadedAddresses,
      innerInstructions,
      logMessages: logs,
      computeUnitsConsumed: budget.unitLimit - remainingUnits,
      effects,
      undo,
      memo: memoOf(message, keys),
    };
  } catch (e) {
    state.rollbackJournal(undo, 0);
    throw e;
  } finally {
    state.endJournal();
  }
}

function resolveLookups(state: AccountsState, message: CompiledMessage): { writable: string[]; readonly: string[] } {
  const writable: string[] = [];
  const readonly: string[] = [];
  for (const lookup of message.addressTableLookups) {
    const table = state.get(lookup.accountKey);
    if (!table || table.owner !== LOOKUP_TABLE_PROGRAM) throw new TransactionRejected("Transaction loads an address table account that doesn't exist");
    const addressAt = (i: number): string => {
      const offset = LOOKUP_TABLE_META_SIZE + 32 * i;
      if (offset + 32 > table.data.length) throw new TransactionRejected("Transaction address table lookup uses an invalid index");
      return bs58.encode(table.data.subarray(offset, offset + 32));
    };
    for (const i of lookup.writableIndexes) writable.push(addressAt(i));
    for (const i of lookup.readonlyIndexes) readonly.push(addressAt(i));
  }
  return { writable, readonly };
}

function computeBudget(message: CompiledMessage, keys: string[]): { unitLimit: number; priorityFee: number } {
  let unitLimit: number | null = null;
  let microLamports = 0n;
  let others = 0;
  for (const ix of message.instructions) {
    if (keys[ix.programIdIndex] !== COMPUTE_BUDGET_PROGRAM) {
      others++;
      continue;
    }
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === 2 && ix.data.length >= 5) unitLimit = view.getUint32(1, true);
    if (ix.data[0] === 3 && ix.data.length >= 9) microLamports = view.getBigUint64(1, true);
  }
  const limit = Math.min(MAX_COMPUTE_UNITS, unitLimit ?? DEFAULT_UNITS_PER_INSTRUCTION * Math.max(1, others));
  const priorityFee = Number((microLamports * BigInt(limit) + 999_999n) / 1_000_000n);
  return { unitLimit: limit, priorityFee };
}

function memoOf(message: CompiledMessage, keys: string[]): string | null {
  const memos = message.instructions
    .filter((ix) => keys[ix.programIdIndex] === MEMO_PROGRAM)
    .map((ix) => `[${ix.data.length}] ${Buffer.from(ix.data).toString("utf8")}`);
  return memos.length > 0 ? memos.join("; ") : null;
}

/** Fills get their position among all instructions, outer and inner, once the inner lists are known. */
function numberExecution(effects: ProgramEffect[], inner: ExecutionResult["innerInstructions"], outerCount: number): void {
  const innerCount = new Map(inner.map((g) => [g.index, g.instructions.length]));
  const start: number[] = [];
  let position = 0;
  for (let i = 0; i < outerCount; i++) {
    start.push(position);
    position += 1 + (innerCount.get(i) ?? 0);
  }
  for (const effect of effects) {
    if (effect.kind !== "take") continue;
    const f = effect.fill;
    f.executionIndex = (start[f.outerIndex] ?? 0) + (f.innerIndex === null ? 0 : f.innerIndex + 1);
  }
}

function consume(frame: Frame, units: number): void {
  frame.remainingUnits -= units;
  if (frame.remainingUnits < 0) {
    frame.remainingUnits = 0;
    throw new InstructionFailure("ComputationalBudgetExceeded");
  }
}

function invokeProgram(
  state: AccountsState,
  programs: ProgramIds,
  frame: Frame,
  programIdIndex: number,
  accountIndexes: number[],
  data: Uint8Array,
  depth: number,
): void {
  const programId = frame.keys[programIdIndex] as string;
  const startUnits = frame.remainingUnits;
  frame.logs.push(invokeLine(programId, depth));
  const finish = () => frame.logs.push(consumedLine(programId, startUnits - frame.remainingUnits, startUnits));
  try {
    if (programId === programs.programId) executeOfferProgram(state, programs, frame, accountIndexes, data, depth);
    else if (programId === programs.routerProgramId) executeRouter(state, programs, frame, accountIndexes, data, depth);
    else if (programId === COMPUTE_BUDGET_PROGRAM) {
      consume(frame, 150);
      frame.logs.push(successLine(programId));
      return;
    } else if (programId === MEMO_PROGRAM) {
      consume(frame, 2_000 + data.length * 20);
      frame.logs.push(`Program log: Memo (len ${data.length}): ${JSON.stringify(Buffer.from(data).toString("utf8"))}`);
    } else {
      throw new InstructionFailure("UnsupportedProgramId");
    }
  } catch (e) {
    if (e instanceof InstructionFailure) {
      finish();
      frame.logs.push(failedLine(programId, e.message));
    }
    throw e;
  }
  finish();
  frame.logs.push(successLine(programId));
}

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

function executeOfferProgram(
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
        return cancelOffer(ctx, instruction);
      case "expire_offer":
        return expireOffer(ctx, instruction);
      case "close_offer":
        return closeOffer(ctx, instruction);
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

function indexOf(frame: Frame, address: string): number {
  const i = frame.keyIndex.get(address);
  if (i === undefined) throw new InstructionFailure("MissingAccount");
  return i;
}

/** An SPL token transfer made by CPI: recorded as an inner instruction, applied to token accounts. */
function tokenTransfer(
  ctx: OfferContext,
  args: { tokenProgram: string; source: string; destination: string; authority: string; amount: bigint; mint?: string },
): void {
  const { frame, state } = ctx;
  const depth = ctx.depth + 1;
  let data: Uint8Array;
  let accounts: number[];
  if (args.mint !== undefined) {
    const mintRecord = state.get(args.mint);
    const decimals = mintRecord ? (mintDecimals(mintRecord.data) ?? 0) : 0;
    data = new Uint8Array(10);
    data[0] = 12; // TransferChecked
    new DataView(data.buffer).setBigUint64(1, args.amount, true);
    data[9] = decimals;
    accounts = [indexOf(frame, args.source), indexOf(frame, args.mint), indexOf(frame, args.destination), indexOf(frame, args.authority)];
  } else {
    data = new Uint8Array(9);
    data[0] = 3; // Transfer
    new DataView(data.buffer).setBigUint64(1, args.amount, true);
    accounts = [indexOf(frame, args.source), indexOf(frame, args.destination), indexOf(frame, args.authority)];
  }
  frame.inner.push({ programIdIndex: indexOf(frame, args.tokenProgram), accounts, data, stackHeight: depth });

  const startUnits = frame.remainingUnits;
  frame.logs.push(invokeLine(args.tokenProgram, depth));
  frame.logs.push(args.mint !== undefined ? "Program log: Instruction: TransferChecked" : "Program log: Instruction: Transfer");
  const finish = (ok: boolean, error = "") => {
    frame.logs.push(consumedLine(args.tokenProgram, startUnits - frame.remainingUnits, startUnits));
    frame.logs.push(ok ? successLine(args.tokenProgram) : failedLine(args.tokenProgram, error));
  };
  consume(frame, args.mint !== undefined ? 6_200 : 4_700);
  const source = state.get(args.source);
  const destination = state.get(args.destination);
  if (!source || !destination || source.data.length < 165 || destination.data.length < 165) {
    frame.logs.push("Program log: Error: InvalidAccountData");
    finish(false, "invalid account data for instruction");
    throw new InstructionFailure("InvalidAccountData");
  }
  const available = tokenAccountAmount(source.data);
  if (available < args.amount) {
    frame.logs.push("Program log: Error: insufficient funds");
    finish(false, "custom program error: 0x1");
    throw new InstructionFailure({ Custom: 1 });
  }
  if (args.source !== args.destination) {
    state.set(args.source, { ...source, data: withTokenAccountAmount(source.data, available - args.amount) });
    const after = state.get(args.destination) as typeof destination;
    state.set(args.destination, { ...after, data: withTokenAccountAmount(after.data, tokenAccountAmount(after.data) + args.amount) });
  }
  finish(true);
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
      innerIndex: inCpi ? (currentInvokeIndex ?? null) : null,
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

function cancelOffer(ctx: OfferContext, ix: Extract<DecodedInstruction, { name: "cancel_offer" }>): void {
  const { accounts } = ix;
  const offer = loadOffer(ctx, accounts.offer);
  if (offer.maker !== accounts.maker) anchorFail("ConstraintHasOne", "maker");
  const problem = checkCancelOffer(offer);
  if (problem) fail(problem);
  endOfferAccount(ctx, accounts, offer, "cancel", accounts.maker);
}

function expireOffer(ctx: OfferContext, ix: Extract<DecodedInstruction, { name: "expire_offer" }>): void {
  const { accounts } = ix;
  const offer = loadOffer(ctx, accounts.offer);
  if (offer.maker !== accounts.maker) anchorFail("ConstraintHasOne", "maker");
  const problem = checkExpireOffer(offer, ctx.now);
  if (problem) fail(problem);
  endOfferAccount(ctx, accounts, offer, "expire", accounts.cranker);
}

function closeOffer(ctx: OfferContext, ix: Extract<DecodedInstruction, { name: "close_offer" }>): void {
  const { accounts } = ix;
  const offer = loadOffer(ctx, accounts.offer);
  if (offer.maker !== accounts.maker) anchorFail("ConstraintHasOne", "maker");
  const problem = checkCloseOffer(offer);
  if (problem) fail(problem);
  const lamports = ctx.state.lamports(accounts.offer);
  ctx.state.set(accounts.offer, undefined);
  ctx.state.addLamports(accounts.maker, lamports);
  ctx.frame.effects.push({ kind: "close", offer: accounts.offer });
}

/** Router instruction data: [1, n, n × fill_amount u64]; accounts: [offer program, n × take_offer's 11 accounts]. */
export const ROUTER_ROUTE_TAKES = 1;
const TAKE_ACCOUNT_COUNT = INSTRUCTION_ACCOUNT_SLOTS.take_offer.length;
let currentInvokeIndex: number | null = null;

function executeRouter(state: AccountsState, programs: ProgramIds, frame: Frame, accountIndexes: number[], data: Uint8Array, depth: number): void {
  frame.logs.push("Program log: Instruction: Route");
  consume(frame, 3_500);
  const count = data[1] ?? 0;
  if (data[0] !== ROUTER_ROUTE_TAKES || data.length < 2 + 8 * count || accountIndexes.length < 1 + count * TAKE_ACCOUNT_COUNT) {
    throw new InstructionFailure("InvalidInstructionData");
  }
  const offerProgramIndex = accountIndexes[0] as number;
  if (frame.keys[offerProgramIndex] !== programs.programId) throw new InstructionFailure("IncorrectProgramId");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < count; i++) {
    const fillAmount = view.getBigUint64(2 + 8 * i, true);
    const takeData = new Uint8Array(16);
    takeData.set(TAKE_DISCRIMINATOR, 0);
    new DataView(takeData.buffer).setBigUint64(8, fillAmount, true);
    const accounts = accountIndexes.slice(1 + i * TAKE_ACCOUNT_COUNT, 1 + (i + 1) * TAKE_ACCOUNT_COUNT);
    // Signer and writable privileges pass through a CPI unchanged, so the taker's signature on the outer transaction counts.
    currentInvokeIndex = frame.inner.length;
    frame.inner.push({ programIdIndex: offerProgramIndex, accounts, data: takeData, stackHeight: depth + 1 });
    try {
      invokeProgram(state, programs, frame, offerProgramIndex, accounts, takeData, depth + 1);
    } finally {
      currentInvokeIndex = null;
    }
  }
}

const TAKE_DISCRIMINATOR = INSTRUCTION_DISCRIMINATORS.take_offer;
