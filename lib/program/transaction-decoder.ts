import bs58 from "bs58";
import { decodeInstruction, resolveAccountIndexes, type DecodedInstruction } from ".";
import type { RawCompiledInstruction, RawTransaction } from "./raw-transaction";

/** One executed instruction of the program, at its position in the transaction. */
export type ProgramEvent = DecodedInstruction & {
  /** Ordinal among all the transaction's instructions, outer and inner, in execution order. */
  ixIndex: number;
  /** True when another program invoked it (it sits in meta.innerInstructions). */
  cpi: boolean;
};

export interface DecodedTransaction {
  signature: string;
  slot: bigint;
  blockTime: Date | null;
  failed: boolean;
  events: ProgramEvent[];
  /** Program instructions whose data or accounts did not decode; skipped and counted. */
  undecodable: number;
}

/**
 * The program's instructions in a transaction, in execution order: each outer
 * instruction followed by the instructions it invoked. Account indexes run over
 * the static keys, then the lookup tables' writable, then readonly addresses.
 * A failed transaction changed nothing, so it yields no events.
 */
export function decodeTransaction(raw: RawTransaction, programId: string): DecodedTransaction {
  const signature = raw.transaction.signatures[0] ?? "";
  const failed = raw.meta?.err != null;
  const decoded: DecodedTransaction = {
    signature,
    slot: BigInt(raw.slot),
    blockTime: raw.blockTime == null ? null : new Date(raw.blockTime * 1000),
    failed,
    events: [],
    undecodable: 0,
  };
  if (failed) return decoded;

  const { accountKeys, instructions } = raw.transaction.message;
  const loaded = raw.meta?.loadedAddresses;
  // A transaction that loaded nothing from lookup tables (every legacy one, whose meta still lists two empty arrays) reads its static keys as they are.
  const keys = loaded && (loaded.writable.length > 0 || loaded.readonly.length > 0) ? [...accountKeys, ...loaded.writable, ...loaded.readonly] : accountKeys;
  const groups = raw.meta?.innerInstructions ?? [];
  let ixIndex = 0;
  for (let outer = 0; outer < instructions.length; outer++) {
    visit(decoded, instructions[outer]!, keys, programId, ixIndex++, false);
    const children = innerOf(groups, outer);
    if (children) for (const child of children) visit(decoded, child, keys, programId, ixIndex++, true);
  }
  return decoded;
}

/** The instructions an outer instruction invoked: its group's (the last of that index, should a node list one twice). */
function innerOf(groups: readonly { index: number; instructions: RawCompiledInstruction[] }[], outer: number): RawCompiledInstruction[] | undefined {
  for (let i = groups.length - 1; i >= 0; i--) if (groups[i]!.index === outer) return groups[i]!.instructions;
  return undefined;
}

/** Adds the instruction at `position` to the events when it is the program's and decodes, else counts it undecodable. */
function visit(decoded: DecodedTransaction, ix: RawCompiledInstruction, keys: readonly string[], programId: string, position: number, cpi: boolean): void {
  if (keys[ix.programIdIndex] !== programId) return;
  const accounts = resolveAccountIndexes(ix.accounts, keys);
  let data: Uint8Array;
  try {
    data = bs58.decode(ix.data);
  } catch {
    decoded.undecodable++;
    return;
  }
  const instruction = accounts && decodeInstruction(data, accounts);
  if (!instruction) {
    decoded.undecodable++;
    return;
  }
  // decodeInstruction's object is this call's own: completed in place rather than copied.
  decoded.events.push(Object.assign(instruction, { ixIndex: position, cpi }));
}
