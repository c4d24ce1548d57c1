import { api, ApiRequestError } from "@/client/api";

/**
 * Whether the indexer has caught up with a confirmed change to these offers:
 * each offer's lastSlot at or past the transaction's slot. An offer the API
 * does not know counts as caught up only when the change deletes it (close);
 * a new offer must appear.
 */
export async function offersIndexedSince(pdas: readonly string[], slot: number, missing: "done" | "pending"): Promise<boolean> {
  for (const pda of pdas) {
    try {
      const offer = await api.offer(pda);
      if (BigInt(offer.lastSlot) < BigInt(slot)) return false;
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 404) {
        if (missing === "pending") return false;
        continue;
      }
      return false;
    }
  }
  return true;
}
