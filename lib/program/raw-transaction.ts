/**
 * getTransaction's result in the `json` encoding, as a Solana node sends it.
 * Only the fields the scanner reads are typed.
 */
export interface RawCompiledInstruction {
  programIdIndex: number;
  accounts: number[];
  /** base58 */
  data: string;
  stackHeight?: number | null;
}

export interface RawTransaction {
  slot: number;
  blockTime: number | null;
  version?: "legacy" | 0;
  meta: {
    err: unknown;
    innerInstructions?: { index: number; instructions: RawCompiledInstruction[] }[] | null;
    loadedAddresses?: { writable: string[]; readonly: string[] } | null;
  } | null;
  transaction: {
    signatures: string[];
    message: {
      accountKeys: string[];
      instructions: RawCompiledInstruction[];
    };
  };
}

/** A getTransaction result that lacks what the scanner needs: the node answered something else. */
export class MalformedTransactionError extends Error {
  override name = "MalformedTransactionError";
}

export function assertRawTransaction(value: unknown, signature: string): asserts value is RawTransaction {
  const tx = value as Partial<RawTransaction> | null;
  const message = tx?.transaction?.message;
  if (
    !tx ||
    typeof tx.slot !== "number" ||
    !Array.isArray(message?.accountKeys) ||
    !Array.isArray(message?.instructions) ||
    !Array.isArray(tx.transaction?.signatures) ||
    tx.meta === undefined
  ) {
    throw new MalformedTransactionError(`getTransaction(${signature}) returned an unexpected shape`);
  }
}
