import type { LocalKeypair } from "./keys";
import type { ExecutionResult, ProgramIds } from "./transaction-executor";
import type { SignedTransaction } from "./wire";

/** The local cluster's ledger: its blocks, transactions and options (ledger.ts). */

export type Commitment = "processed" | "confirmed" | "finalized";

export interface SlotRecord {
  slot: number;
  parentSlot: number;
  blockTime: number;
  blockhash: string;
  blockHeight: number;
  /** Position of the slot's first transaction in the ledger. */
  firstPosition: number;
  transactionCount: number;
}

export interface LedgerTransaction {
  /** Order in the ledger: (slot, index in block). */
  position: number;
  signature: string;
  slot: number;
  blockTime: number;
  /** Dropped by prune(): the heavy fields are released but the effects stay, for the expected state. */
  pruned: boolean;
  /** Null once pruned, or archived (then its wire form is in the archive). */
  signed: SignedTransaction | null;
  version: "legacy" | 0;
  /** Its id in the ledger's archive once archived: then only its served forms are kept (archive.ts). */
  archived: number | null;
  /** The serialized message, what the signatures sign. */
  messageBytes: Uint8Array | null;
  /** sha256 of the message, for duplicate detection. */
  messageKey: string;
  /** Set while the signatures are being made elsewhere (appendUnsigned). */
  pendingSigners?: readonly LocalKeypair[];
  result: ExecutionResult;
  /** JSON of meta.err, shared by getSignaturesForAddress and getSignatureStatuses. */
  errJson: string;
  /** Every account the transaction references (static and loaded), for the address index. */
  addresses: string[];
}

export interface LedgerOptions {
  seed: string;
  programs: ProgramIds;
  firstSlot: number;
  /** Unix ms of `firstSlot`'s block time. */
  genesisUnixMs: number;
  slotMs: number;
  /** Keep transactions past the undo window as bytes only (archive.ts): for large histories. */
  archiveHistory?: boolean;
}
