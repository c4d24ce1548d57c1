import { ByteWriter } from "../../lib/program";
import { findProgramAddressFast } from "./fast-pda";
import { addressBytes } from "./wire";

/**
 * Offer PDAs memoized: the simulator (to build create_offer) and the runtime
 * (to check the seeds) each need the same one. Seeds as docs/program.md gives them:
 * ["offer", maker, nonce u64 LE].
 */
const cache = new Map<string, { address: string; bump: number }>();
const MAX_ENTRIES = 200_000;
const OFFER_SEED = new TextEncoder().encode("offer");

export function cachedOfferAddress(programId: string, maker: string, nonce: bigint): { address: string; bump: number } {
  const key = `${programId}:${maker}:${nonce}`;
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = findProgramAddressFast([OFFER_SEED, addressBytes(maker), new ByteWriter(8).u64(0, nonce, "nonce").bytes], programId);
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}
