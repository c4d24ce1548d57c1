import type { Candle, Fill, Offer } from "./types";

// The events of GET /v1/stream (Server-Sent Events), as the browser reads them.
// Each carries the feed's id (a decimal string, strictly increasing).

export type LiveEvent =
  | { type: "fill"; id: string; fill: Fill }
  | { type: "offer"; id: string; offer: Offer }
  | { type: "revoke"; id: string; signature: string; slot: string }
  /** A pair's candles at each resolution whose bucket holds the fills' minute (only with `types` naming it). */
  | { type: "candle"; id: string; tokenMint: string; paymentMint: string; candles: Partial<Record<string, Candle>> }
  | { type: "reset"; id: string; reason: string };

/** The stream's filters; each narrows what the server sends. */
export interface LiveFilter {
  tokenMint?: string;
  paymentMint?: string;
  maker?: string;
  offerPda?: string;
  /** Default: fill, offer and revoke; candle only when named. */
  types?: readonly ("fill" | "offer" | "revoke" | "candle")[];
}

/** One stable text per filter, so two components asking for the same feed share it. */
export function filterKey(filter: LiveFilter): string {
  return streamPath(filter);
}

/** The stream's address for a filter, resuming after an id when one is known. */
export function streamPath(filter: LiveFilter, after?: string | null): string {
  const params = new URLSearchParams();
  for (const key of ["tokenMint", "paymentMint", "maker", "offerPda"] as const) {
    const value = filter[key];
    if (value) params.set(key, value);
  }
  if (filter.types && filter.types.length > 0) params.set("types", [...filter.types].sort().join(","));
  if (after) params.set("after", after);
  const text = params.toString();
  return `/v1/stream${text ? `?${text}` : ""}`;
}

/** Ids compare as integers of any length; the feed's ids may pass 2^53. */
export function idAfter(id: string, than: string | null): boolean {
  if (than === null) return true;
  return BigInt(id) > BigInt(than);
}

/** An SSE message as an event, or null when its kind or body is not one this client knows. */
export function parseLiveEvent(type: string, id: string, data: string): LiveEvent | null {
  // A reset may come before any event of this stream, so without an id of its own.
  if (!/^\d+$/.test(id) && !(type === "reset" && id === "")) return null;
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null) return null;
  const record = body as Record<string, unknown>;
  switch (type) {
    case "fill":
      return typeof record.signature === "string" && typeof record.offerPda === "string" ? { type, id, fill: body as Fill } : null;
    case "offer":
      return typeof record.pda === "string" && typeof record.status === "string" ? { type, id, offer: body as Offer } : null;
    case "revoke":
      return typeof record.signature === "string" ? { type, id, signature: record.signature, slot: String(record.slot ?? "") } : null;
    case "candle":
      return typeof record.tokenMint === "string" && typeof record.paymentMint === "string" && typeof record.candles === "object" && record.candles !== null
        ? { type, id, tokenMint: record.tokenMint, paymentMint: record.paymentMint, candles: record.candles as Partial<Record<string, Candle>> }
        : null;
    case "reset":
      return { type, id, reason: typeof record.reason === "string" ? record.reason : "" };
    default:
      return null;
  }
}
