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

  const loaded = raw.meta?.loadedAddresses;
  const keys = loaded ? [...raw.transaction.message.accountKeys, ...loaded.writable, ...loaded.readonly] : raw.transaction.message.accountKeys;
  const inner = new Map<number, RawCompiledInstruction[]>();
  for (const group of raw.meta?.innerInstructions ?? []) inner.set(group.index, group.instructions);

  let ixIndex = 0;
  const visit = (ix: RawCompiledInstruction, cpi: boolean) => {
    const position = ixIndex++;
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
    decoded.events.push({ ...instruction, ixIndex: position, cpi });
  };
  raw.transaction.message.instructions.forEach((ix, outer) => {
    visit(ix, false);
    for (const child of inner.get(outer) ?? []) visit(child, true);
  });
  return decoded;
}
