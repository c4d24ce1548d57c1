import bs58 from "bs58";
import { SYSTEM_PROGRAM_ADDRESS } from "../../lib/program";
import { consume, type Frame, InstructionFailure } from "./frame";
import type { AccountsState } from "./state";
import { isSigned, requireWritable } from "./token-program";

/**
 * The System program's transfer and createAccount, with the checks and log
 * lines of system_processor: signatures, `from` carrying no data, enough
 * lamports, and a new account not already in use.
 */

/** The most data an account may hold (10 MiB). */
const MAX_PERMITTED_DATA_LENGTH = 10 * 1024 * 1024;

function u64At(data: Uint8Array, offset: number): number {
  if (data.length < offset + 8) throw new InstructionFailure("InvalidInstructionData");
  const value = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
  // Lamports are JS numbers here; nothing real holds 2^53 lamports (9 million SOL), so more is simply unaffordable.
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

const addressText = (address: string) => `Address { address: ${address}, base: None }`;

function debit(state: AccountsState, frame: Frame, fromAt: number, lamports: number): void {
  const from = frame.keys[fromAt] as string;
  if (!isSigned(frame, fromAt)) {
    frame.logs.push(`Transfer: \`from\` account ${from} must sign`);
    throw new InstructionFailure("MissingRequiredSignature");
  }
  const record = state.get(from);
  if (record && record.data.length > 0) {
    frame.logs.push("Transfer: `from` must not carry data");
    throw new InstructionFailure("InvalidArgument");
  }
  const balance = record?.lamports ?? 0;
  if (balance < lamports) {
    frame.logs.push(`Transfer: insufficient lamports ${balance}, need ${lamports}`);
    throw new InstructionFailure({ Custom: 1 });
  }
  requireWritable(frame, fromAt, true);
  if (lamports > 0) state.addLamports(from, -lamports);
}

export function executeSystemProgram(state: AccountsState, frame: Frame, accountIndexes: number[], data: Uint8Array): void {
  consume(frame, 150);
  if (data.length < 4) throw new InstructionFailure("InvalidInstructionData");
  const tag = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true);
  const at = (i: number): number => {
    const index = accountIndexes[i];
    if (index === undefined) throw new InstructionFailure("NotEnoughAccountKeys");
    return index;
  };
  switch (tag) {
    case 0: {
      // CreateAccount { lamports, space, owner }
      const lamports = u64At(data, 4);
      const space = u64At(data, 12);
      if (data.length < 52) throw new InstructionFailure("InvalidInstructionData");
      const owner = bs58.encode(data.subarray(20, 52));
      const newAt = at(1);
      const address = frame.keys[newAt] as string;
      const existing = state.get(address);
      if (existing && (existing.lamports > 0 || existing.data.length > 0 || existing.owner !== SYSTEM_PROGRAM_ADDRESS)) {
        frame.logs.push(`Create Account: account ${addressText(address)} already in use`);
        throw new InstructionFailure({ Custom: 0 });
      }
      if (!isSigned(frame, newAt)) {
        frame.logs.push(`Allocate: 'to' account ${addressText(address)} must sign`);
        throw new InstructionFailure("MissingRequiredSignature");
      }
      if (space > MAX_PERMITTED_DATA_LENGTH) {
        frame.logs.push(`Allocate: requested ${space}, max allowed ${MAX_PERMITTED_DATA_LENGTH}`);
        throw new InstructionFailure({ Custom: 3 });
      }
      requireWritable(frame, newAt);
      debit(state, frame, at(0), lamports);
      state.set(address, { lamports, owner, data: new Uint8Array(space), executable: false });
      return;
    }
    case 2: {
      // Transfer { lamports }
      const lamports = u64At(data, 4);
      const toAt = at(1);
      requireWritable(frame, toAt, true);
      debit(state, frame, at(0), lamports);
      state.addLamports(frame.keys[toAt] as string, lamports);
      return;
    }
    default:
      throw new InstructionFailure("InvalidInstructionData");
  }
}
