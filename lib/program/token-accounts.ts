import { sha256 } from "@noble/hashes/sha2";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSyncNativeInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { addressToBytes } from "./bytes";
import { TOKEN_PROGRAM_ADDRESS } from "./constants";

/** The wrapped SOL mint: paying in it means wrapping lamports first and unwrapping after. */
export const WRAPPED_SOL_MINT = "So11111111111111111111111111111111111111112";

export const TOKEN_PROGRAM_ID = new PublicKey(TOKEN_PROGRAM_ADDRESS);

/** The owner's associated token account; owners may be PDAs (an offer) or any wallet (the treasury). */
export function associatedTokenAddress(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);
}

/** An associated token account the transaction makes sure exists (createIdempotent: a no-op when it does). */
export function ensureTokenAccount(payer: PublicKey, owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): { address: PublicKey; instruction: TransactionInstruction } {
  const address = associatedTokenAddress(owner, mint, tokenProgram);
  return { address, instruction: createAssociatedTokenAccountIdempotentInstruction(payer, address, owner, mint, tokenProgram) };
}

/** Moves lamports into a wrapped-SOL token account and has the token program count them (syncNative). */
export function wrapSolInstructions(owner: PublicKey, wrappedAccount: PublicKey, lamports: bigint): TransactionInstruction[] {
  return [
    SystemProgram.transfer({ fromPubkey: owner, toPubkey: wrappedAccount, lamports }),
    createSyncNativeInstruction(wrappedAccount, TOKEN_PROGRAM_ID),
  ];
}

/** Closes a wrapped-SOL account: all its lamports, wrapped balance and rent, return to the owner as SOL. */
export function unwrapSolInstruction(owner: PublicKey, wrappedAccount: PublicKey): TransactionInstruction {
  return createCloseAccountInstruction(wrappedAccount, owner, owner, [], TOKEN_PROGRAM_ID);
}

export function isWrappedSol(mint: string | PublicKey): boolean {
  return (typeof mint === "string" ? mint : mint.toBase58()) === WRAPPED_SOL_MINT;
}

const ESCROW_SEED = new TextEncoder().encode("escrow");

/**
 * The offer's escrow token account as the local demo cluster places it:
 * sha256(offer ‖ "escrow" ‖ token program), owned by the offer PDA (the
 * cluster's world.ts escrowOf calls this). The program interface leaves the escrow's
 * address to the program; takes, cancels and expiries look the escrow up by
 * its owner (the offer) first and use this only when none is found.
 */
export function escrowAddressBytes(offer: string, tokenProgram: string): Uint8Array {
  return sha256.create().update(addressToBytes(offer)).update(ESCROW_SEED).update(addressToBytes(tokenProgram)).digest();
}

export function derivedEscrowAddress(offer: PublicKey, tokenProgram: PublicKey): PublicKey {
  return new PublicKey(escrowAddressBytes(offer.toBase58(), tokenProgram.toBase58()));
}
