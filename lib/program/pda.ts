import { Buffer } from "buffer";
import { PublicKey } from "@solana/web3.js";
import { ByteWriter } from "./bytes";

const OFFER_SEED = Buffer.from("offer");

export function offerSeeds(maker: PublicKey, nonce: bigint): Buffer[] {
  return [OFFER_SEED, maker.toBuffer(), Buffer.from(new ByteWriter(8).u64(0, nonce, "nonce").bytes)];
}

/** The offer PDA: seeds ["offer", maker, nonce u64 LE] under the configured program id. */
export function findOfferAddress(programId: PublicKey, maker: PublicKey, nonce: bigint): { address: PublicKey; bump: number } {
  const [address, bump] = PublicKey.findProgramAddressSync(offerSeeds(maker, nonce), programId);
  return { address, bump };
}

/**
 * The offer address for a known bump, as the program re-derives it; throws
 * when the seeds and bump land on the curve (no valid PDA).
 */
export function createOfferAddress(programId: PublicKey, maker: PublicKey, nonce: bigint, bump: number): PublicKey {
  return PublicKey.createProgramAddressSync([...offerSeeds(maker, nonce), Buffer.from([bump])], programId);
}
