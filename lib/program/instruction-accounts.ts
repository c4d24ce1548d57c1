import type { Address } from "./bytes";
import type { InstructionName } from "./discriminators";
import { decodeInstructionData, type InstructionArgsByName } from "./instruction-data";

/** One account slot of an instruction, in the order the instruction carries it. */
export interface AccountSlot {
  readonly role: string;
  readonly signer: boolean;
  readonly writable: boolean;
}

/** The account lists of docs/program.md's instructions, role names in camelCase. */
export const INSTRUCTION_ACCOUNT_SLOTS = {
  create_offer: [
    { role: "maker", signer: true, writable: true },
    { role: "offer", signer: false, writable: true },
    { role: "tokenMint", signer: false, writable: false },
    { role: "paymentMint", signer: false, writable: false },
    { role: "escrow", signer: false, writable: true },
    { role: "makerSource", signer: false, writable: true },
    { role: "tokenProgram", signer: false, writable: false },
    { role: "systemProgram", signer: false, writable: false },
  ],
  take_offer: [
    { role: "taker", signer: true, writable: true },
    { role: "offer", signer: false, writable: true },
    { role: "maker", signer: false, writable: true },
    { role: "tokenMint", signer: false, writable: false },
    { role: "paymentMint", signer: false, writable: false },
    { role: "escrow", signer: false, writable: true },
    { role: "takerTokenAccount", signer: false, writable: true },
    { role: "takerPaymentAccount", signer: false, writable: true },
    { role: "makerReceiveAccount", signer: false, writable: true },
    { role: "treasuryPaymentAccount", signer: false, writable: true },
    { role: "tokenProgram", signer: false, writable: false },
  ],
  cancel_offer: [
    { role: "maker", signer: true, writable: true },
    { role: "offer", signer: false, writable: true },
    { role: "escrow", signer: false, writable: true },
    { role: "makerRefundAccount", signer: false, writable: true },
    { role: "tokenProgram", signer: false, writable: false },
  ],
  expire_offer: [
    { role: "cranker", signer: true, writable: true },
    { role: "offer", signer: false, writable: true },
    { role: "maker", signer: false, writable: true },
    { role: "escrow", signer: false, writable: true },
    { role: "makerRefundAccount", signer: false, writable: true },
    { role: "tokenProgram", signer: false, writable: false },
  ],
  close_offer: [
    { role: "maker", signer: true, writable: true },
    { role: "offer", signer: false, writable: true },
  ],
} as const satisfies Record<InstructionName, readonly AccountSlot[]>;

export type AccountRole<N extends InstructionName> = (typeof INSTRUCTION_ACCOUNT_SLOTS)[N][number]["role"];

/** An instruction's accounts by role; K is Address (base58) when decoding, PublicKey when building. */
export type InstructionAccounts<N extends InstructionName, K = Address> = { [R in AccountRole<N>]: K };

export type CreateOfferAccounts<K = Address> = InstructionAccounts<"create_offer", K>;
export type TakeOfferAccounts<K = Address> = InstructionAccounts<"take_offer", K>;
export type CancelOfferAccounts<K = Address> = InstructionAccounts<"cancel_offer", K>;
export type ExpireOfferAccounts<K = Address> = InstructionAccounts<"expire_offer", K>;
export type CloseOfferAccounts<K = Address> = InstructionAccounts<"close_offer", K>;

/**
 * Names an instruction's accounts. `accounts` are the instruction's own account
 * addresses in order (already resolved from the transaction's account keys).
 * Null when there are fewer than the instruction needs; extra accounts (Anchor's
 * remaining_accounts) are ignored.
 */
export function nameInstructionAccounts<N extends InstructionName>(
  name: N,
  accounts: readonly Address[],
): InstructionAccounts<N> | null {
  const slots: readonly AccountSlot[] = INSTRUCTION_ACCOUNT_SLOTS[name];
  if (accounts.length < slots.length) return null;
  const named: Record<string, Address> = {};
  for (let i = 0; i < slots.length; i++) named[slots[i]!.role] = accounts[i]!;
  return named as InstructionAccounts<N>;
}

/**
 * Resolves an instruction's account indexes over a transaction's full key list:
 * the static keys, then meta.loadedAddresses.writable, then .readonly (docs/program.md#reading-transactions).
 * Null when an index is out of range.
 */
export function resolveAccountIndexes(indexes: readonly number[], accountKeys: readonly Address[]): Address[] | null {
  const out: Address[] = new Array(indexes.length);
  for (let i = 0; i < indexes.length; i++) {
    const key = accountKeys[indexes[i] as number];
    if (key === undefined) return null;
    out[i] = key;
  }
  return out;
}

export type DecodedInstruction = {
  [N in InstructionName]: { name: N; args: InstructionArgsByName[N]; accounts: InstructionAccounts<N> };
}[InstructionName];

/**
 * Decodes one instruction of the offer-book program: data and accounts together.
 * Null when the data does not decode (unknown discriminator or malformed) or
 * the instruction carries too few accounts.
 */
export function decodeInstruction(data: Uint8Array, accounts: readonly Address[]): DecodedInstruction | null {
  const decoded = decodeInstructionData(data);
  if (decoded === null) return null;
  const named = nameInstructionAccounts(decoded.name, accounts);
  if (named === null) return null;
  // decodeInstructionData's object is this call's own: completed in place rather than copied.
  return Object.assign(decoded, { accounts: named }) as DecodedInstruction;
}
