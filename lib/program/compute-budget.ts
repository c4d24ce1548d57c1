import { ComputeBudgetProgram, type TransactionInstruction } from "@solana/web3.js";
import { ASSOCIATED_TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { instructionNameOf, type InstructionName } from "./discriminators";
import { SYSTEM_PROGRAM_ADDRESS } from "./constants";

/**
 * Compute units and priority fees. A transaction asks for the units it needs
 * (estimated per instruction, then the simulation's figure with headroom), not
 * the 200k-per-instruction default, so its priority fee buys what it uses.
 */

/** Generous per-instruction estimates for the first simulation; the measured figure replaces them. */
const OFFER_INSTRUCTION_UNITS: Record<InstructionName, number> = {
  create_offer: 60_000,
  take_offer: 60_000,
  cancel_offer: 40_000,
  expire_offer: 40_000,
  close_offer: 15_000,
};
const ASSOCIATED_TOKEN_UNITS = 30_000;
const TOKEN_INSTRUCTION_UNITS = 6_000;
const SYSTEM_INSTRUCTION_UNITS = 1_000;
const COMPUTE_BUDGET_UNITS = 300;

export const MAX_COMPUTE_UNITS = 1_400_000;
/** Headroom over a simulation's units: account state may change between simulation and execution. */
export const SIMULATED_UNITS_HEADROOM = 1.2;

export function estimateComputeUnits(instructions: readonly TransactionInstruction[], programId: string): number {
  let units = 2 * COMPUTE_BUDGET_UNITS;
  for (const ix of instructions) {
    const program = ix.programId.toBase58();
    if (program === programId) {
      const name = instructionNameOf(ix.data);
      units += name ? OFFER_INSTRUCTION_UNITS[name] : 60_000;
    } else if (program === ASSOCIATED_TOKEN_PROGRAM_ID.toBase58()) units += ASSOCIATED_TOKEN_UNITS;
    else if (program === SYSTEM_PROGRAM_ADDRESS) units += SYSTEM_INSTRUCTION_UNITS;
    else units += TOKEN_INSTRUCTION_UNITS;
  }
  return Math.min(units, MAX_COMPUTE_UNITS);
}

/** The unit limit after a simulation: what it used plus headroom, never more than the estimate would have allowed twice over. */
export function unitsFromSimulation(unitsConsumed: number | undefined, estimate: number): number {
  if (unitsConsumed === undefined || unitsConsumed <= 0) return estimate;
  return Math.min(MAX_COMPUTE_UNITS, Math.ceil(unitsConsumed * SIMULATED_UNITS_HEADROOM) + COMPUTE_BUDGET_UNITS * 2);
}

/** Micro-lamports per unit when the cluster reports no recent priority fees (a quiet or local cluster). */
export const DEFAULT_PRIORITY_FEE = 1_000;
/** A ceiling so a fee spike cannot make a trade cost more than a few thousandths of a SOL. */
export const MAX_PRIORITY_FEE = 1_000_000;

/**
 * The priority fee (micro-lamports per compute unit) from getRecentPrioritizationFees'
 * samples: the 75th percentile of the non-zero ones, so the transaction lands ahead
 * of most recent ones without paying for the outliers; bounded by the default and the ceiling.
 */
export function priorityFeeMicroLamports(recentFees: readonly number[]): number {
  const paid = recentFees.filter((f) => f > 0).sort((a, b) => a - b);
  if (paid.length === 0) return DEFAULT_PRIORITY_FEE;
  const p75 = paid[Math.min(paid.length - 1, Math.floor(paid.length * 0.75))] as number;
  return Math.min(MAX_PRIORITY_FEE, Math.max(DEFAULT_PRIORITY_FEE, p75));
}

export interface ComputeBudget {
  units: number;
  microLamports: number;
}

export function computeBudgetInstructions(budget: ComputeBudget): TransactionInstruction[] {
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units: budget.units }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: budget.microLamports }),
  ];
}

/** Lamports a transaction pays: 5000 per signature plus units × price. */
export function transactionFeeLamports(signatures: number, budget: ComputeBudget): bigint {
  const priority = (BigInt(budget.units) * BigInt(budget.microLamports) + 999_999n) / 1_000_000n;
  return 5_000n * BigInt(signatures) + priority;
}

// ComputeBudget instruction tags: SetComputeUnitLimit (u32) and SetComputeUnitPrice (u64).
const SET_UNIT_LIMIT = 2;
const SET_UNIT_PRICE = 3;

function budgetInstruction(instructions: readonly TransactionInstruction[], tag: number): TransactionInstruction | undefined {
  return instructions.find((ix) => ix.programId.equals(ComputeBudgetProgram.programId) && ix.data[0] === tag);
}

/** The budget a transaction's instructions ask for (the runtime's 200k default limit when none is set). */
export function readComputeBudget(instructions: readonly TransactionInstruction[]): ComputeBudget {
  const limit = budgetInstruction(instructions, SET_UNIT_LIMIT);
  const price = budgetInstruction(instructions, SET_UNIT_PRICE);
  const view = (ix: TransactionInstruction) => new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
  return {
    units: limit ? view(limit).getUint32(1, true) : 200_000,
    microLamports: price ? Number(view(price).getBigUint64(1, true)) : 0,
  };
}

/** The same instructions asking for `units` (the limit replaced in place, or put first). */
export function withComputeUnitLimit(instructions: readonly TransactionInstruction[], units: number): TransactionInstruction[] {
  const current = budgetInstruction(instructions, SET_UNIT_LIMIT);
  const limit = ComputeBudgetProgram.setComputeUnitLimit({ units });
  return current ? instructions.map((ix) => (ix === current ? limit : ix)) : [limit, ...instructions];
}
