/**
 * What the cluster's runtime takes and gives: the programs it plays, the block
 * a transaction executes in, and the result with its effects and undo list.
 */
import type { OfferAccount, OfferSide } from "../../lib/program";
import type { UndoEntry } from "./state";

export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const MEMO_PROGRAM = "MemoSq4gqABAXKKBgdXzJJcx1W9BqjmbxaPWLGxhzhs";
export const LOOKUP_TABLE_PROGRAM = "AddressLookupTab1e1111111111111111111111111";
export const LAMPORTS_PER_SIGNATURE = 5000;

export interface ProgramIds {
  /** The offer-book program the cluster plays. */
  programId: string;
  /** A program that invokes take_offer by CPI, so takes appear as inner instructions. */
  routerProgramId: string;
  /** Owner of the fee accounts take_offer must pay into. */
  treasury: string;
}

export interface BlockContext {
  slot: number;
  /** Unix seconds; the program's `now`. */
  blockTime: number;
}

export type InstructionErrorDetail = { Custom: number } | string;
export type TransactionError = { InstructionError: [number, InstructionErrorDetail] } | string;

export interface InnerInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number;
}

/** One executed take_offer: the cluster's own record, the truth the indexer is tested against. */
export interface FillRecord {
  signature: string;
  slot: number;
  blockTime: number;
  /** Index of the outer instruction that is, or invoked, the take. */
  outerIndex: number;
  /** Index within meta.innerInstructions[outer].instructions when invoked by CPI, else null. */
  innerIndex: number | null;
  /** Position among all the transaction's instructions, outer and inner, in execution order. */
  executionIndex: number;
  offer: string;
  maker: string;
  taker: string;
  tokenMint: string;
  paymentMint: string;
  side: OfferSide;
  fillAmount: bigint;
  paymentAmount: bigint;
  feeAmount: bigint;
}

export type ProgramEffect =
  | { kind: "create"; offer: string; account: OfferAccount }
  | { kind: "take"; offer: string; account: OfferAccount; fill: FillRecord }
  | { kind: "cancel" | "expire"; offer: string; account: OfferAccount }
  | { kind: "close"; offer: string };

export interface ExecutionResult {
  signature: string;
  err: TransactionError | null;
  fee: number;
  preBalances: number[];
  postBalances: number[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  innerInstructions: Array<{ index: number; instructions: InnerInstruction[] }>;
  logMessages: string[];
  computeUnitsConsumed: number;
  /** Empty when the transaction failed: a failed transaction changes nothing but the fee. */
  effects: ProgramEffect[];
  undo: UndoEntry[];
  memo: string | null;
}

/** A transaction no leader would include; `err` is the TransactionError simulateTransaction reports for it. */
export class TransactionRejected extends Error {
  constructor(
    message: string,
    readonly rpcCode = -32002,
    readonly err = "SanitizeFailure",
  ) {
    super(message);
  }
}
