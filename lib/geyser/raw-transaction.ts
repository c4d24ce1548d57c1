import bs58 from "bs58";
import type { RawCompiledInstruction, RawTransaction } from "../program/raw-transaction";
import type { SubscribeUpdateTransactionInfo } from "./service";

/**
 * A Yellowstone transaction update in the shape getTransaction's `json`
 * encoding has, the one the program's decoder reads: keys and signatures as
 * base58, instruction data as base58, account indexes as numbers, and a v0
 * transaction's loaded addresses from its meta. Yellowstone carries no block
 * time on a transaction: it comes from the slot's block meta.
 */
export function rawFromGeyser(info: SubscribeUpdateTransactionInfo, slot: number, blockTime: number | null): RawTransaction {
  const message = info.transaction?.message;
  const meta = info.meta;
  const compiled = (ix: { programIdIndex: number; accounts: Uint8Array; data: Uint8Array }): RawCompiledInstruction => ({
    programIdIndex: ix.programIdIndex,
    accounts: [...ix.accounts],
    data: bs58.encode(ix.data),
  });
  return {
    slot,
    blockTime,
    version: message?.versioned ? 0 : "legacy",
    meta: meta
      ? {
          // Its bincode bytes are not needed: the decoder only asks whether it failed.
          err: meta.err ? { geyser: Buffer.from(meta.err.err).toString("base64") } : null,
          innerInstructions: meta.innerInstructionsNone ? null : meta.innerInstructions.map((g) => ({ index: g.index, instructions: g.instructions.map(compiled) })),
          loadedAddresses: message?.versioned
            ? { writable: meta.loadedWritableAddresses.map((a) => bs58.encode(a)), readonly: meta.loadedReadonlyAddresses.map((a) => bs58.encode(a)) }
            : null,
        }
      : null,
    transaction: {
      signatures: (info.transaction?.signatures ?? [info.signature]).map((s) => bs58.encode(s)),
      message: {
        accountKeys: (message?.accountKeys ?? []).map((k) => bs58.encode(k)),
        instructions: (message?.instructions ?? []).map(compiled),
      },
    },
  };
}
