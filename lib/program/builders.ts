import { Buffer } from "buffer";
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import type { InstructionName } from "./discriminators";
import { type AccountSlot, INSTRUCTION_ACCOUNT_SLOTS, type InstructionAccounts } from "./instruction-accounts";
import { type CreateOfferArgs, encodeInstructionData, type InstructionData, type TakeOfferArgs } from "./instruction-data";

/** Accepts either form so callers holding base58 strings need not convert first. */
export type PublicKeyLike = PublicKey | string;

function toPublicKey(key: PublicKeyLike): PublicKey {
  return typeof key === "string" ? new PublicKey(key) : key;
}

function buildInstruction<N extends InstructionName>(
  programId: PublicKeyLike,
  name: N,
  accounts: InstructionAccounts<N, PublicKeyLike>,
  data: InstructionData,
): TransactionInstruction {
  const slots: readonly AccountSlot[] = INSTRUCTION_ACCOUNT_SLOTS[name];
  const byRole = accounts as Record<string, PublicKeyLike>;
  const keys = slots.map((slot) => {
    const key = byRole[slot.role];
    if (key === undefined) throw new Error(`${name}: missing account ${slot.role}`);
    return { pubkey: toPublicKey(key), isSigner: slot.signer, isWritable: slot.writable };
  });
  return new TransactionInstruction({ programId: toPublicKey(programId), keys, data: Buffer.from(encodeInstructionData(data)) });
}

export type CreateOfferBuilderAccounts = Omit<InstructionAccounts<"create_offer", PublicKeyLike>, "systemProgram"> & {
  systemProgram?: PublicKeyLike;
};

export function createOfferInstruction(
  programId: PublicKeyLike,
  accounts: CreateOfferBuilderAccounts,
  args: CreateOfferArgs,
): TransactionInstruction {
  return buildInstruction(
    programId,
    "create_offer",
    { ...accounts, systemProgram: accounts.systemProgram ?? SystemProgram.programId },
    { name: "create_offer", args },
  );
}

export function takeOfferInstruction(
  programId: PublicKeyLike,
  accounts: InstructionAccounts<"take_offer", PublicKeyLike>,
  args: TakeOfferArgs,
): TransactionInstruction {
  return buildInstruction(programId, "take_offer", accounts, { name: "take_offer", args });
}

export function cancelOfferInstruction(
  programId: PublicKeyLike,
  accounts: InstructionAccounts<"cancel_offer", PublicKeyLike>,
): TransactionInstruction {
  return buildInstruction(programId, "cancel_offer", accounts, { name: "cancel_offer", args: {} });
}

export function expireOfferInstruction(
  programId: PublicKeyLike,
  accounts: InstructionAccounts<"expire_offer", PublicKeyLike>,
): TransactionInstruction {
  return buildInstruction(programId, "expire_offer", accounts, { name: "expire_offer", args: {} });
}

export function closeOfferInstruction(
  programId: PublicKeyLike,
  accounts: InstructionAccounts<"close_offer", PublicKeyLike>,
): TransactionInstruction {
  return buildInstruction(programId, "close_offer", accounts, { name: "close_offer", args: {} });
}
