import { consume, consumedLine, failedLine, type Frame, indexOf, InstructionFailure, invokeLine, successLine } from "./frame";
import type { AccountsState } from "./state";
import { transferTokens } from "./token-program";
import { mintDecimals } from "./tokens";

/** Where a program making a token CPI runs: the accounts, its frame, and its own depth. */
export interface CpiCaller {
  state: AccountsState;
  frame: Frame;
  depth: number;
}

/** An SPL token transfer made by CPI: recorded as an inner instruction, applied to token accounts. */
export function tokenTransfer(
  ctx: CpiCaller,
  args: { tokenProgram: string; source: string; destination: string; authority: string; amount: bigint; mint?: string },
): void {
  const { frame, state } = ctx;
  const depth = ctx.depth + 1;
  let data: Uint8Array;
  let accounts: number[];
  if (args.mint !== undefined) {
    const mintRecord = state.get(args.mint);
    const decimals = mintRecord ? (mintDecimals(mintRecord.data) ?? 0) : 0;
    data = new Uint8Array(10);
    data[0] = 12; // TransferChecked
    new DataView(data.buffer).setBigUint64(1, args.amount, true);
    data[9] = decimals;
    accounts = [indexOf(frame, args.source), indexOf(frame, args.mint), indexOf(frame, args.destination), indexOf(frame, args.authority)];
  } else {
    data = new Uint8Array(9);
    data[0] = 3; // Transfer
    new DataView(data.buffer).setBigUint64(1, args.amount, true);
    accounts = [indexOf(frame, args.source), indexOf(frame, args.destination), indexOf(frame, args.authority)];
  }
  frame.inner.push({ programIdIndex: indexOf(frame, args.tokenProgram), accounts, data, stackHeight: depth });

  const startUnits = frame.remainingUnits;
  frame.logs.push(invokeLine(args.tokenProgram, depth));
  frame.logs.push(args.mint !== undefined ? "Program log: Instruction: TransferChecked" : "Program log: Instruction: Transfer");
  const finish = (ok: boolean, error = "") => {
    frame.logs.push(consumedLine(args.tokenProgram, startUnits - frame.remainingUnits, startUnits));
    frame.logs.push(ok ? successLine(args.tokenProgram) : failedLine(args.tokenProgram, error));
  };
  consume(frame, args.mint !== undefined ? 6_200 : 4_700);
  const decimals = args.mint !== undefined ? (data[9] as number) : 0;
  try {
    // The offer program signs for its PDAs (invoke_signed); the taker's and maker's own signatures pass through the CPI.
    transferTokens(state, frame, { ...args, tokenProgram: null, authoritySigned: true, checked: args.mint !== undefined ? { mint: args.mint, decimals } : undefined });
  } catch (e) {
    if (e instanceof InstructionFailure) finish(false, e.message);
    throw e;
  }
  finish(true);
}
