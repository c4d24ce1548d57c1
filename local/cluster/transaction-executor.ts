import bs58 from "bs58";
import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";
import {
  COMPUTE_BUDGET_PROGRAM,
  type BlockContext,
  type ExecutionResult,
  LAMPORTS_PER_SIGNATURE,
  LOOKUP_TABLE_PROGRAM,
  MEMO_PROGRAM,
  type ProgramEffect,
  type ProgramIds,
  type TransactionError,
  TransactionRejected,
} from "./execution-types";
import { consume, consumedLine, failedLine, type Frame, InstructionFailure, invokeLine, successLine } from "./frame";
import { executeOfferProgram } from "./offer-program";
import { ASSOCIATED_TOKEN_PROGRAM, executeAssociatedTokenProgram } from "./ata-program";
import { executeRouter, type Invoke } from "./router-program";
import { executeSystemProgram } from "./system-program";
import { executeTokenProgram } from "./token-program";
import { type AccountsState, InsufficientLamports } from "./state";
import { LOOKUP_TABLE_META_SIZE } from "./tokens";
import type { CompiledMessage } from "./wire";

export {
  COMPUTE_BUDGET_PROGRAM,
  LAMPORTS_PER_SIGNATURE,
  LOOKUP_TABLE_PROGRAM,
  MEMO_PROGRAM,
  TransactionRejected,
  type BlockContext,
  type ExecutionResult,
  type FillRecord,
  type InnerInstruction,
  type InstructionErrorDetail,
  type ProgramEffect,
  type ProgramIds,
  type TransactionError,
} from "./execution-types";
export { ROUTER_ROUTE_TAKES } from "./router-program";

const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;
const BUILTIN_DEFAULT_UNITS = 3_000;
const MAX_COMPUTE_UNITS = 1_400_000;

/**
 * Executes a signed transaction against the accounts, playing the offer-book
 * program (docs/program.md), a router that invokes take_offer by CPI, the token
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

  const budget = computeBudget(message);
  const fee = LAMPORTS_PER_SIGNATURE * message.header.numRequiredSignatures + budget.priorityFee;
  const payer = keys[0] as string;
  const payerLamports = state.lamports(payer);
  if (payerLamports === 0) throw new TransactionRejected("Attempt to debit an account but found no record of a prior credit.", -32002, "AccountNotFound");
  if (payerLamports < fee) throw new TransactionRejected("Insufficient funds for fee", -32002, "InsufficientFundsForFee");

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
        cpiInvokeIndex: null,
        cpiSigners: new Set(),
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
    if (!table || table.owner !== LOOKUP_TABLE_PROGRAM) throw new TransactionRejected("Transaction loads an address table account that doesn't exist", -32002, "AddressLookupTableNotFound");
    const addressAt = (i: number): string => {
      const offset = LOOKUP_TABLE_META_SIZE + 32 * i;
      if (offset + 32 > table.data.length) throw new TransactionRejected("Transaction address table lookup uses an invalid index", -32002, "InvalidAddressLookupTableIndex");
      return bs58.encode(table.data.subarray(offset, offset + 32));
    };
    for (const i of lookup.writableIndexes) writable.push(addressAt(i));
    for (const i of lookup.readonlyIndexes) readonly.push(addressAt(i));
  }
  return { writable, readonly };
}

/** The unit limit, the price (micro-lamports per unit) and the priority fee a message sets, or gets by default. */
export function computeBudget(message: CompiledMessage): { unitLimit: number; microLamports: bigint; priorityFee: number } {
  const keys = message.staticKeys;
  let unitLimit: number | null = null;
  let microLamports = 0n;
  let defaultLimit = 0;
  for (const ix of message.instructions) {
    const program = keys[ix.programIdIndex];
    // SIMD-0170: builtin programs reserve 3,000 units by default, the others 200,000.
    defaultLimit += program === COMPUTE_BUDGET_PROGRAM || program === SYSTEM_PROGRAM_ADDRESS ? BUILTIN_DEFAULT_UNITS : DEFAULT_UNITS_PER_INSTRUCTION;
    if (program !== COMPUTE_BUDGET_PROGRAM) continue;
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === 2 && ix.data.length >= 5) unitLimit = view.getUint32(1, true);
    if (ix.data[0] === 3 && ix.data.length >= 9) microLamports = view.getBigUint64(1, true);
  }
  const limit = Math.min(MAX_COMPUTE_UNITS, unitLimit ?? defaultLimit);
  const priorityFee = Number((microLamports * BigInt(limit) + 999_999n) / 1_000_000n);
  return { unitLimit: limit, microLamports, priorityFee };
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
  // Builtin programs log no "consumed" line.
  const builtin = programId === COMPUTE_BUDGET_PROGRAM || programId === SYSTEM_PROGRAM_ADDRESS;
  const invoke: Invoke = (index, accounts, innerData, innerDepth) => invokeProgram(state, programs, frame, index, accounts, innerData, innerDepth);
  frame.logs.push(invokeLine(programId, depth));
  const finish = () => {
    if (!builtin) frame.logs.push(consumedLine(programId, startUnits - frame.remainingUnits, startUnits));
  };
  try {
    if (programId === programs.programId) executeOfferProgram(state, programs, frame, accountIndexes, data, depth);
    else if (programId === programs.routerProgramId) executeRouter(programs, frame, accountIndexes, data, depth, invoke);
    else if (programId === COMPUTE_BUDGET_PROGRAM) consume(frame, 150);
    else if (programId === SYSTEM_PROGRAM_ADDRESS) executeSystemProgram(state, frame, accountIndexes, data);
    else if (programId === TOKEN_PROGRAM_ADDRESS || programId === TOKEN_2022_PROGRAM_ADDRESS) executeTokenProgram(state, frame, programId, accountIndexes, data);
    else if (programId === ASSOCIATED_TOKEN_PROGRAM) executeAssociatedTokenProgram(state, frame, accountIndexes, data, depth, invoke);
    else if (programId === MEMO_PROGRAM) {
      consume(frame, 2_000 + data.length * 20);
      frame.logs.push(`Program log: Memo (len ${data.length}): ${JSON.stringify(Buffer.from(data).toString("utf8"))}`);
    } else {
      throw new InstructionFailure("UnsupportedProgramId");
    }
  } catch (caught) {
    let e = caught;
    // A program paying out more lamports than an account holds fails as its System transfer would.
    if (e instanceof InsufficientLamports) {
      frame.logs.push(e.message);
      e = new InstructionFailure({ Custom: 1 });
    }
    if (e instanceof InstructionFailure) {
      finish();
      frame.logs.push(failedLine(programId, e.message));
    }
    throw e;
  }
  finish();
  frame.logs.push(successLine(programId));
}
