import { Buffer } from "buffer";
import { PACKET_DATA_SIZE, PublicKey, Transaction, type TransactionInstruction } from "@solana/web3.js";
import { type ComputeBudget, computeBudgetInstructions, estimateComputeUnits } from "./compute-budget";

/** A stand-in blockhash for measuring: every blockhash serializes to the same 32 bytes. */
const MEASURING_BLOCKHASH = PublicKey.default.toBase58();

/** The wire size of a legacy transaction of these instructions with its signatures; Infinity past what serializes. */
export function transactionSize(instructions: readonly TransactionInstruction[], payer: PublicKey): number {
  try {
    const tx = new Transaction({ feePayer: payer, recentBlockhash: MEASURING_BLOCKHASH }).add(...instructions);
    return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).length;
  } catch {
    return Infinity;
  }
}

/**
 * One offer's share of a batch: `setup` (e.g. a createIdempotent for the
 * refund account) and `teardown` (an unwrap) are shared by the offers of one
 * transaction, deduplicated, before and after all the `main` instructions.
 */
export interface InstructionGroup {
  setup?: readonly TransactionInstruction[];
  main: readonly TransactionInstruction[];
  teardown?: readonly TransactionInstruction[];
}

function instructionKey(ix: TransactionInstruction): string {
  return `${ix.programId.toBase58()}|${ix.keys.map((k) => k.pubkey.toBase58()).join(",")}|${Buffer.from(ix.data).toString("hex")}`;
}

function uniqueInstructions(instructions: readonly TransactionInstruction[]): TransactionInstruction[] {
  const seen = new Map<string, TransactionInstruction>();
  for (const ix of instructions) if (!seen.has(instructionKey(ix))) seen.set(instructionKey(ix), ix);
  return [...seen.values()];
}

/** A batch's instructions, compute budget first. */
function assemble(groups: readonly InstructionGroup[], programId: string, microLamports: number): TransactionInstruction[] {
  const body = [
    ...uniqueInstructions(groups.flatMap((g) => g.setup ?? [])),
    ...groups.flatMap((g) => g.main),
    ...uniqueInstructions(groups.flatMap((g) => g.teardown ?? [])),
  ];
  const budget: ComputeBudget = { units: estimateComputeUnits(body, programId), microLamports };
  return [...computeBudgetInstructions(budget), ...body];
}

export interface PackOptions {
  payer: PublicKey;
  programId: string;
  microLamports: number;
  /** Bytes a transaction may take; the packet limit unless a test says less. */
  maxBytes?: number;
}

/**
 * Packs groups in order into as few transactions as fit the packet limit
 * (1232 bytes), measuring each candidate's serialized size. Each transaction
 * carries its compute budget (estimated for what it holds). Throws when one
 * group alone does not fit.
 */
export function packInstructionGroups(groups: readonly InstructionGroup[], options: PackOptions): TransactionInstruction[][] {
  const maxBytes = options.maxBytes ?? PACKET_DATA_SIZE;
  const fits = (batch: readonly InstructionGroup[]) => transactionSize(assemble(batch, options.programId, options.microLamports), options.payer) <= maxBytes;
  const out: TransactionInstruction[][] = [];
  let current: InstructionGroup[] = [];
  for (const group of groups) {
    if (fits([...current, group])) {
      current.push(group);
      continue;
    }
    if (current.length === 0) throw new Error("one offer's instructions do not fit a transaction");
    out.push(assemble(current, options.programId, options.microLamports));
    current = [group];
    if (!fits(current)) throw new Error("one offer's instructions do not fit a transaction");
  }
  if (current.length > 0) out.push(assemble(current, options.programId, options.microLamports));
  return out;
}
