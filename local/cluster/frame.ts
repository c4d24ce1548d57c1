import type { BlockContext, InnerInstruction, InstructionErrorDetail, ProgramEffect } from "./execution-types";
import type { CompiledMessage } from "./wire";

const internedLines = new Map<string, string>();

/**
 * Log lines repeat across transactions (same programs, depths and errors);
 * sharing one string per distinct line keeps 100,000 transactions' logs small.
 */
export function interned(key: string, make: () => string): string {
  let line = internedLines.get(key);
  if (line === undefined) {
    line = make();
    internedLines.set(key, line);
  }
  return line;
}
export const invokeLine = (programId: string, depth: number) => interned(`i${depth}${programId}`, () => `Program ${programId} invoke [${depth}]`);
export const successLine = (programId: string) => interned(`s${programId}`, () => `Program ${programId} success`);
export const failedLine = (programId: string, message: string) => interned(`f${programId}${message}`, () => `Program ${programId} failed: ${message}`);
export const consumedLine = (programId: string, used: number, of: number) => `Program ${programId} consumed ${used} of ${of} compute units`;

/** How a node words an InstructionError variant (its Display), in logs and in preflight errors. */
const INSTRUCTION_ERROR_TEXT: Record<string, string> = {
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  IncorrectProgramId: "incorrect program id for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  NotEnoughAccountKeys: "insufficient account keys for instruction",
  ReadonlyLamportChange: "instruction changed the balance of a read-only account",
  ReadonlyDataModified: "instruction modified data of a read-only account",
  UnsupportedProgramId: "Unsupported program id",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  MissingAccount: "An account required by the instruction is missing",
  InvalidSeeds: "Provided seeds do not result in a valid address",
  IllegalOwner: "Provided owner is not allowed",
};

export function describeInstructionError(detail: InstructionErrorDetail): string {
  return typeof detail === "string" ? (INSTRUCTION_ERROR_TEXT[detail] ?? detail) : `custom program error: 0x${detail.Custom.toString(16)}`;
}

export class InstructionFailure extends Error {
  constructor(readonly detail: InstructionErrorDetail) {
    super(describeInstructionError(detail));
  }
}

/** One outer instruction's execution: the transaction's keys, where logs, inner instructions and effects go, and the units left. */
export interface Frame {
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
  /** While the router invokes take_offer by CPI: the take's index in `inner`, so the fill records where it sits. */
  cpiInvokeIndex: number | null;
  /** The PDAs the invoking program signs for (invoke_signed) while it makes a CPI. */
  cpiSigners: Set<string>;
}

export function consume(frame: Frame, units: number): void {
  frame.remainingUnits -= units;
  if (frame.remainingUnits < 0) {
    frame.remainingUnits = 0;
    throw new InstructionFailure("ComputationalBudgetExceeded");
  }
}

export function indexOf(frame: Frame, address: string): number {
  const i = frame.keyIndex.get(address);
  if (i === undefined) throw new InstructionFailure("MissingAccount");
  return i;
}
