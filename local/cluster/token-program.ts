import bs58 from "bs58";
import { TOKEN_2022_PROGRAM_ADDRESS } from "../../lib/program";
import { consume, type Frame, InstructionFailure } from "./frame";
import { type AccountRecord, type AccountsState, rentExemptLamports } from "./state";
import {
  encodeTokenAccount,
  isTokenAccountData,
  MINT_SIZE,
  mintDecimals,
  NATIVE_MINT,
  nativeReserveOf,
  TOKEN_ACCOUNT_SIZE,
  tokenAccountAmount,
  withTokenAccountAmount,
} from "./tokens";
import { isSignerIndex, isWritableIndex } from "./wire";

/**
 * The SPL Token and Token-2022 instructions a wallet sends around the offer
 * book (transfer, transferChecked, mintTo, syncNative, closeAccount, and the
 * account initialization the associated-token-account program invokes),
 * failing with the token program's own error codes and log lines.
 */

/** spl-token's TokenError: code and the line the program logs. */
const TOKEN_ERRORS = {
  NotRentExempt: [0, "Lamport balance below rent-exempt threshold"],
  InsufficientFunds: [1, "insufficient funds"],
  InvalidMint: [2, "Invalid Mint"],
  MintMismatch: [3, "Account not associated with this Mint"],
  OwnerMismatch: [4, "owner does not match"],
  FixedSupply: [5, "the total supply of this token is fixed"],
  AlreadyInUse: [6, "account or token already in use"],
  NativeNotSupported: [10, "Instruction does not support native tokens"],
  NonNativeHasBalance: [11, "Non-native account can only be closed if its balance is zero"],
  InvalidInstruction: [12, "Invalid instruction"],
  InvalidState: [13, "State is invalid for requested operation"],
  Overflow: [14, "Operation overflowed"],
  MintDecimalsMismatch: [18, "decimals different from the Mint decimals"],
  NonNativeNotSupported: [19, "Instruction does not support non-native tokens"],
} as const;

type TokenErrorName = keyof typeof TOKEN_ERRORS;

function tokenFail(frame: Frame, name: TokenErrorName): never {
  const [code, line] = TOKEN_ERRORS[name];
  frame.logs.push(`Program log: Error: ${line}`);
  throw new InstructionFailure({ Custom: code });
}

const INSTRUCTION_NAMES: Record<number, string> = {
  3: "Transfer",
  7: "MintTo",
  9: "CloseAccount",
  12: "TransferChecked",
  14: "MintToChecked",
  17: "SyncNative",
  18: "InitializeAccount3",
  21: "GetAccountDataSize",
  22: "InitializeImmutableOwner",
};

const UNITS: Record<number, number> = { 3: 4_645, 7: 4_492, 9: 2_915, 12: 6_200, 14: 4_600, 17: 3_045, 18: 4_188, 21: 1_500, 22: 1_405 };

interface TokenAccountView {
  record: AccountRecord;
  mint: string;
  owner: string;
  amount: bigint;
  nativeReserve: bigint | null;
}

function loadTokenAccount(state: AccountsState, tokenProgram: string | null, address: string): TokenAccountView {
  const record = state.get(address);
  if (!record || !isTokenAccountData(record.data)) throw new InstructionFailure("InvalidAccountData");
  if (tokenProgram !== null && record.owner !== tokenProgram) throw new InstructionFailure("IncorrectProgramId");
  return {
    record,
    mint: bs58.encode(record.data.subarray(0, 32)),
    owner: bs58.encode(record.data.subarray(32, 64)),
    amount: tokenAccountAmount(record.data),
    nativeReserve: nativeReserveOf(record.data),
  };
}

function loadMint(state: AccountsState, tokenProgram: string | null, address: string, frame: Frame): AccountRecord {
  const record = state.get(address);
  if (!record || record.data.length < MINT_SIZE || record.data[45] !== 1 || (record.data.length > MINT_SIZE && record.data[TOKEN_ACCOUNT_SIZE] !== 1)) {
    return tokenFail(frame, "InvalidMint");
  }
  if (tokenProgram !== null && record.owner !== tokenProgram) throw new InstructionFailure("IncorrectProgramId");
  return record;
}

/** Who may sign for an instruction: the transaction's signers, and the PDAs the invoking program signs for. */
export function isSigned(frame: Frame, index: number): boolean {
  return isSignerIndex(frame.message, index) || frame.cpiSigners.has(frame.keys[index] as string);
}

export function requireWritable(frame: Frame, index: number, lamportsOnly = false): void {
  if (!isWritableIndex(frame.message, index, frame.loadedWritableCount)) throw new InstructionFailure(lamportsOnly ? "ReadonlyLamportChange" : "ReadonlyDataModified");
}

export interface TokenTransferArgs {
  /**
   * The program the accounts must belong to; null where the offer program
   * moves both sides of a trade through the token mint's program, which the
   * cluster lets reach payment accounts of the other token program.
   */
  tokenProgram: string | null;
  source: string;
  destination: string;
  authority: string;
  authoritySigned: boolean;
  amount: bigint;
  /** TransferChecked: the mint and the decimals the caller states. */
  checked?: { mint: string; decimals: number };
}

/**
 * Moves tokens as process_transfer does, checks in its order. Wrapped SOL
 * moves its lamports with its amount. The simulator's wallets hold wrapped
 * SOL in accounts without the native flag (their 10^17 units would not fit in
 * lamports); what they pay into a native account is credited to its lamports
 * too, so a native account's lamports always cover its amount.
 */
export function transferTokens(state: AccountsState, frame: Frame, args: TokenTransferArgs): void {
  const source = loadTokenAccount(state, args.tokenProgram, args.source);
  const destination = loadTokenAccount(state, args.tokenProgram, args.destination);
  if (source.amount < args.amount) tokenFail(frame, "InsufficientFunds");
  if (source.mint !== destination.mint) tokenFail(frame, "MintMismatch");
  if (args.checked) {
    if (args.checked.mint !== source.mint) tokenFail(frame, "MintMismatch");
    const mint = loadMint(state, args.tokenProgram, args.checked.mint, frame);
    if (mintDecimals(mint.data) !== args.checked.decimals) tokenFail(frame, "MintDecimalsMismatch");
  }
  if (args.authority !== source.owner) tokenFail(frame, "OwnerMismatch");
  if (!args.authoritySigned) throw new InstructionFailure("MissingRequiredSignature");
  if (args.source === args.destination) return;
  state.set(args.source, { ...source.record, data: withTokenAccountAmount(source.record.data, source.amount - args.amount) });
  const after = state.get(args.destination) as AccountRecord;
  state.set(args.destination, { ...after, data: withTokenAccountAmount(after.data, tokenAccountAmount(after.data) + args.amount) });
  const lamports = Number(args.amount);
  if (source.nativeReserve !== null) {
    state.addLamports(args.source, -lamports);
    state.addLamports(args.destination, lamports);
  } else if (destination.nativeReserve !== null) {
    state.addLamports(args.destination, lamports);
  }
}

function u64At(data: Uint8Array, offset: number): bigint {
  if (data.length < offset + 8) throw new InstructionFailure("InvalidInstructionData");
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

/** Runs one token-program instruction (top level, or invoked by the ATA program); the caller logs invoke and result lines. */
export function executeTokenProgram(state: AccountsState, frame: Frame, programId: string, accountIndexes: number[], data: Uint8Array): void {
  const tag = data[0] ?? -1;
  const name = INSTRUCTION_NAMES[tag];
  if (name === undefined) tokenFail(frame, "InvalidInstruction");
  frame.logs.push(`Program log: Instruction: ${name}`);
  consume(frame, UNITS[tag] ?? 3_000);
  const at = (i: number): number => {
    const index = accountIndexes[i];
    if (index === undefined) throw new InstructionFailure("NotEnoughAccountKeys");
    return index;
  };
  const key = (i: number) => frame.keys[at(i)] as string;

  switch (tag) {
    case 3:
    case 12: {
      const checked = tag === 12;
      const [src, dst, auth] = checked ? [0, 2, 3] : [0, 1, 2];
      requireWritable(frame, at(src));
      requireWritable(frame, at(dst));
      transferTokens(state, frame, {
        tokenProgram: programId,
        source: key(src),
        destination: key(dst),
        authority: key(auth),
        authoritySigned: isSigned(frame, at(auth)),
        amount: u64At(data, 1),
        checked: checked ? { mint: key(1), decimals: data[9] ?? -1 } : undefined,
      });
      return;
    }
    case 7:
    case 14:
      return mintTo(state, frame, programId, { mint: at(0), destination: at(1), authority: at(2) }, u64At(data, 1), tag === 14 ? (data[9] ?? -1) : null);
    case 9:
      return closeAccount(state, frame, programId, at(0), at(1), at(2));
    case 17: {
      const address = key(0);
      requireWritable(frame, at(0));
      const account = loadTokenAccount(state, programId, address);
      if (account.nativeReserve === null) tokenFail(frame, "NonNativeNotSupported");
      const amount = BigInt(account.record.lamports) - account.nativeReserve;
      if (amount < account.amount) tokenFail(frame, "InvalidState");
      state.set(address, { ...account.record, data: withTokenAccountAmount(account.record.data, amount) });
      return;
    }
    case 18: {
      if (data.length < 33) throw new InstructionFailure("InvalidInstructionData");
      return initializeAccount(state, frame, programId, key(0), key(1), data.subarray(1, 33));
    }
    default:
      // GetAccountDataSize and InitializeImmutableOwner change nothing here: initialization writes the whole account.
      return;
  }
}

function mintTo(
  state: AccountsState,
  frame: Frame,
  programId: string,
  at: { mint: number; destination: number; authority: number },
  amount: bigint,
  decimals: number | null,
): void {
  const mintAddress = frame.keys[at.mint] as string;
  const destinationAddress = frame.keys[at.destination] as string;
  requireWritable(frame, at.mint);
  requireWritable(frame, at.destination);
  const destination = loadTokenAccount(state, programId, destinationAddress);
  if (destination.nativeReserve !== null) tokenFail(frame, "NativeNotSupported");
  if (destination.mint !== mintAddress) tokenFail(frame, "MintMismatch");
  const mint = loadMint(state, programId, mintAddress, frame);
  if (decimals !== null && mintDecimals(mint.data) !== decimals) tokenFail(frame, "MintDecimalsMismatch");
  const view = new DataView(mint.data.buffer, mint.data.byteOffset, mint.data.byteLength);
  if (view.getUint32(0, true) !== 1) tokenFail(frame, "FixedSupply");
  if (bs58.encode(mint.data.subarray(4, 36)) !== frame.keys[at.authority]) tokenFail(frame, "OwnerMismatch");
  if (!isSigned(frame, at.authority)) throw new InstructionFailure("MissingRequiredSignature");
  const supply = view.getBigUint64(36, true) + amount;
  if (supply >= 1n << 64n || destination.amount + amount >= 1n << 64n) tokenFail(frame, "Overflow");
  const mintData = mint.data.slice();
  new DataView(mintData.buffer).setBigUint64(36, supply, true);
  state.set(mintAddress, { ...mint, data: mintData });
  state.set(destinationAddress, { ...destination.record, data: withTokenAccountAmount(destination.record.data, destination.amount + amount) });
}

function closeAccount(state: AccountsState, frame: Frame, programId: string, accountAt: number, destinationAt: number, authorityAt: number): void {
  const address = frame.keys[accountAt] as string;
  const destination = frame.keys[destinationAt] as string;
  requireWritable(frame, accountAt);
  requireWritable(frame, destinationAt, true);
  const account = loadTokenAccount(state, programId, address);
  if (address === destination) throw new InstructionFailure("InvalidAccountData");
  if (account.nativeReserve === null && account.amount !== 0n) tokenFail(frame, "NonNativeHasBalance");
  const view = new DataView(account.record.data.buffer, account.record.data.byteOffset, account.record.data.byteLength);
  const closeAuthority = view.getUint32(129, true) === 1 ? bs58.encode(account.record.data.subarray(133, 165)) : account.owner;
  if (frame.keys[authorityAt] !== closeAuthority) tokenFail(frame, "OwnerMismatch");
  if (!isSigned(frame, authorityAt)) throw new InstructionFailure("MissingRequiredSignature");
  state.addLamports(destination, account.record.lamports);
  state.set(address, undefined);
}

function initializeAccount(state: AccountsState, frame: Frame, programId: string, address: string, mintAddress: string, owner: Uint8Array): void {
  const record = state.get(address);
  if (!record || record.owner !== programId) throw new InstructionFailure("IncorrectProgramId");
  if (record.data.length >= TOKEN_ACCOUNT_SIZE && record.data[108] !== 0) tokenFail(frame, "AlreadyInUse");
  loadMint(state, programId, mintAddress, frame);
  const kind = programId === TOKEN_2022_PROGRAM_ADDRESS ? "token-2022" : "spl-token";
  const rent = rentExemptLamports(record.data.length);
  if (record.lamports < rent) tokenFail(frame, "NotRentExempt");
  const native = mintAddress === NATIVE_MINT;
  const data = encodeTokenAccount({
    mint: bs58.decode(mintAddress),
    owner,
    amount: native ? BigInt(record.lamports - rent) : 0n,
    kind,
    nativeReserve: native ? BigInt(rent) : undefined,
  });
  if (data.length !== record.data.length) throw new InstructionFailure("InvalidAccountData");
  state.set(address, { ...record, data });
}
