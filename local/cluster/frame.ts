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

export class InstructionFailure extends Error {
  constructor(readonly detail: InstructionErrorDetail) {
    super(typeof detail === "string" ? detail : `custom program error: 0x${detail.Custom.toString(16)}`);
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
