import { INSTRUCTION_ACCOUNT_SLOTS, INSTRUCTION_DISCRIMINATORS } from "../../lib/program";
import type { ProgramIds } from "./execution-types";
import { consume, type Frame, InstructionFailure } from "./frame";

/** Runs one instruction of any program the cluster plays, as `invokeProgram` in transaction-executor.ts does. */
export type Invoke = (programIdIndex: number, accountIndexes: number[], data: Uint8Array, depth: number) => void;

/** Router instruction data: [1, n, n × fill_amount u64]; accounts: [offer program, n × take_offer's 11 accounts]. */
export const ROUTER_ROUTE_TAKES = 1;
const TAKE_ACCOUNT_COUNT = INSTRUCTION_ACCOUNT_SLOTS.take_offer.length;

/**
 * A router program that invokes take_offer by CPI, so the cluster's history
 * holds takes as inner instructions, as aggregators make them.
 */
export function executeRouter(programs: ProgramIds, frame: Frame, accountIndexes: number[], data: Uint8Array, depth: number, invoke: Invoke): void {
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
    frame.cpiInvokeIndex = frame.inner.length;
    frame.inner.push({ programIdIndex: offerProgramIndex, accounts, data: takeData, stackHeight: depth + 1 });
    try {
      invoke(offerProgramIndex, accounts, takeData, depth + 1);
    } finally {
      frame.cpiInvokeIndex = null;
    }
  }
}

const TAKE_DISCRIMINATOR = INSTRUCTION_DISCRIMINATORS.take_offer;
