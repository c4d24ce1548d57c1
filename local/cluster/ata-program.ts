import bs58 from "bs58";
import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";
import { findProgramAddressFast } from "./fast-pda";
import { consume, type Frame, InstructionFailure } from "./frame";
import type { Invoke } from "./router-program";
import { type AccountsState, rentExemptLamports } from "./state";
import { isTokenAccountData, TOKEN_ACCOUNT_SIZE } from "./tokens";
import { addressBytes } from "./wire";

export const ASSOCIATED_TOKEN_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";

/** Token-2022 accounts the ATA program makes carry the ImmutableOwner extension: account type byte, then an empty TLV entry. */
const TOKEN_2022_ACCOUNT_SIZE = TOKEN_ACCOUNT_SIZE + 1 + 4;

/** The owner's associated token account for a mint under a token program. */
export function associatedTokenAddress(owner: string, mint: string, tokenProgram: string): string {
  return findProgramAddressFast([addressBytes(owner), addressBytes(tokenProgram), addressBytes(mint)], ASSOCIATED_TOKEN_PROGRAM).address;
}

/**
 * The associated-token-account program's Create and CreateIdempotent:
 * accounts [payer, associated account, owner, mint, system program, token
 * program]. It derives and checks the address, then invokes the System
 * program to create the account and the token program to initialize it, as
 * inner instructions with their own logs.
 */
export function executeAssociatedTokenProgram(state: AccountsState, frame: Frame, accountIndexes: number[], data: Uint8Array, depth: number, invoke: Invoke): void {
  const tag = data.length === 0 ? 0 : (data[0] as number);
  if (tag > 1) throw new InstructionFailure("InvalidInstructionData");
  frame.logs.push(tag === 1 ? "Program log: CreateIdempotent" : "Program log: Create");
  consume(frame, 3_000);
  if (accountIndexes.length < 6) throw new InstructionFailure("NotEnoughAccountKeys");
  const [payerAt, ataAt, ownerAt, mintAt, systemAt, tokenProgramAt] = accountIndexes as [number, number, number, number, number, number];
  const key = (i: number) => frame.keys[i] as string;
  const tokenProgram = key(tokenProgramAt);
  if (tokenProgram !== TOKEN_PROGRAM_ADDRESS && tokenProgram !== TOKEN_2022_PROGRAM_ADDRESS) throw new InstructionFailure("IncorrectProgramId");
  if (key(systemAt) !== SYSTEM_PROGRAM_ADDRESS) throw new InstructionFailure("IncorrectProgramId");
  const ata = key(ataAt);
  const owner = key(ownerAt);
  const mint = key(mintAt);
  if (associatedTokenAddress(owner, mint, tokenProgram) !== ata) {
    frame.logs.push("Program log: Error: Associated address does not match seed derivation");
    throw new InstructionFailure("InvalidSeeds");
  }

  const existing = state.get(ata);
  if (tag === 1 && existing && existing.owner === tokenProgram && isTokenAccountData(existing.data)) {
    if (bs58.encode(existing.data.subarray(32, 64)) !== owner) {
      frame.logs.push("Program log: Error: Associated token account owner does not match address derivation");
      throw new InstructionFailure("IllegalOwner");
    }
    return;
  }
  const mintRecord = state.get(mint);
  if (!mintRecord || mintRecord.owner !== tokenProgram) throw new InstructionFailure("IllegalOwner");

  const space = tokenProgram === TOKEN_2022_PROGRAM_ADDRESS ? TOKEN_2022_ACCOUNT_SIZE : TOKEN_ACCOUNT_SIZE;
  const inner = (programAt: number, accounts: number[], innerData: Uint8Array) => {
    frame.inner.push({ programIdIndex: programAt, accounts, data: innerData, stackHeight: depth + 1 });
    invoke(programAt, accounts, innerData, depth + 1);
  };

  inner(tokenProgramAt, [mintAt], Uint8Array.of(21)); // GetAccountDataSize
  const create = new Uint8Array(52);
  const view = new DataView(create.buffer);
  view.setUint32(0, 0, true);
  view.setBigUint64(4, BigInt(rentExemptLamports(space)), true);
  view.setBigUint64(12, BigInt(space), true);
  create.set(addressBytes(tokenProgram), 20);
  // The program signs for the associated address, its PDA.
  frame.cpiSigners.add(ata);
  try {
    inner(systemAt, [payerAt, ataAt], create);
  } finally {
    frame.cpiSigners.delete(ata);
  }
  frame.logs.push("Program log: Initialize the associated token account");
  inner(tokenProgramAt, [ataAt], Uint8Array.of(22)); // InitializeImmutableOwner
  const initialize = new Uint8Array(33);
  initialize[0] = 18; // InitializeAccount3 { owner }
  initialize.set(addressBytes(owner), 1);
  inner(tokenProgramAt, [ataAt, mintAt], initialize);
}
