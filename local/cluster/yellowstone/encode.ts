import bs58 from "bs58";
import type { SubscribeUpdate } from "../../../lib/geyser/service";
import type { Ledger } from "../ledger";
import type { LedgerTransaction, SlotRecord } from "../ledger-types";
import { metaJson, transactionJson } from "../render";

/**
 * The ledger's transactions and blocks as Yellowstone updates, built from the
 * forms getTransaction serves (so both paths say the same): keys, signatures
 * and instruction data as bytes, account indexes as bytes. A failed
 * transaction's error is its JSON's bytes (a validator sends bincode; readers
 * only ask whether it is there).
 */

interface JsonInstruction {
  programIdIndex: number;
  accounts: number[];
  data: string;
  stackHeight?: number | null;
}

interface JsonTransaction {
  signatures: string[];
  message: {
    header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
    accountKeys: string[];
    recentBlockhash: string;
    instructions: JsonInstruction[];
    addressTableLookups?: { accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
  };
}

interface JsonMeta {
  err: unknown;
  fee: number;
  innerInstructions: { index: number; instructions: JsonInstruction[] }[];
  logMessages: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
}

const compiled = (ix: JsonInstruction) => ({ programIdIndex: ix.programIdIndex, accounts: Uint8Array.from(ix.accounts), data: bs58.decode(ix.data) });

export function transactionUpdate(ledger: Ledger, tx: LedgerTransaction, index: number, filters: string[]): SubscribeUpdate {
  const json = JSON.parse(transactionJson(tx, "json", ledger.archive)) as JsonTransaction;
  const meta = JSON.parse(metaJson(tx, ledger.archive)) as JsonMeta;
  const versioned = json.message.addressTableLookups !== undefined;
  return {
    filters,
    createdAt: new Date(),
    transaction: {
      slot: String(tx.slot),
      transaction: {
        signature: bs58.decode(tx.signature),
        isVote: false,
        index: String(index),
        transaction: {
          signatures: json.signatures.map((s) => bs58.decode(s)),
          message: {
            header: json.message.header,
            accountKeys: json.message.accountKeys.map((k) => bs58.decode(k)),
            recentBlockhash: bs58.decode(json.message.recentBlockhash),
            instructions: json.message.instructions.map(compiled),
            versioned,
            addressTableLookups: (json.message.addressTableLookups ?? []).map((l) => ({
              accountKey: bs58.decode(l.accountKey),
              writableIndexes: Uint8Array.from(l.writableIndexes),
              readonlyIndexes: Uint8Array.from(l.readonlyIndexes),
            })),
          },
        },
        meta: {
          err: meta.err === null ? undefined : { err: new TextEncoder().encode(JSON.stringify(meta.err)) },
          fee: String(meta.fee),
          preBalances: [],
          postBalances: [],
          innerInstructions: meta.innerInstructions.map((g) => ({ index: g.index, instructions: g.instructions.map((ix) => ({ ...compiled(ix), stackHeight: ix.stackHeight ?? undefined })) })),
          innerInstructionsNone: false,
          logMessages: meta.logMessages,
          logMessagesNone: false,
          preTokenBalances: [],
          postTokenBalances: [],
          rewards: [],
          loadedWritableAddresses: meta.loadedAddresses.writable.map((a) => bs58.decode(a)),
          loadedReadonlyAddresses: meta.loadedAddresses.readonly.map((a) => bs58.decode(a)),
          returnData: undefined,
          returnDataNone: true,
        },
      },
    },
  };
}

export function blockMetaUpdate(record: SlotRecord, filters: string[]): SubscribeUpdate {
  return {
    filters,
    createdAt: new Date(),
    blockMeta: {
      slot: String(record.slot),
      blockhash: record.blockhash,
      rewards: undefined,
      blockTime: { timestamp: String(record.blockTime) },
      blockHeight: { blockHeight: String(record.blockHeight) },
      parentSlot: String(record.parentSlot),
      parentBlockhash: "",
      executedTransactionCount: String(record.transactionCount),
      entriesCount: "0",
    },
  };
}
