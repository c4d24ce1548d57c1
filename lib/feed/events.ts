import type { FeedEventKind } from "../db/schema/feed";

export type { FeedEventKind };

/** One row of the feed's log as readers see it, with its Server-Sent Events frame made once. */
export interface FeedEvent {
  id: bigint;
  kind: FeedEventKind;
  offerPdas: readonly string[];
  makers: readonly string[];
  tokenMints: readonly string[];
  paymentMints: readonly string[];
  /** `id:`, `event:` and `data:` lines, encoded: shared by every stream that sends it. */
  frame: Uint8Array;
}

/** What a stream asked for: every filter given must match (as on the list endpoints). */
export interface FeedFilter {
  types: ReadonlySet<FeedEventKind>;
  tokenMint?: string;
  paymentMint?: string;
  maker?: string;
  offerPda?: string;
}

/**
 * A fill or an offer matches on its one offer's values. A revoke carries the
 * values of every offer its transaction touched, and matches when each filter
 * names one of them (a transaction touching two books can reach a reader of a
 * mix of the two: a revoke errs toward being told).
 */
export function matches(event: FeedEvent, filter: FeedFilter): boolean {
  return (
    filter.types.has(event.kind) &&
    (filter.tokenMint === undefined || event.tokenMints.includes(filter.tokenMint)) &&
    (filter.paymentMint === undefined || event.paymentMints.includes(filter.paymentMint)) &&
    (filter.maker === undefined || event.makers.includes(filter.maker)) &&
    (filter.offerPda === undefined || event.offerPdas.includes(filter.offerPda))
  );
}

const encoder = new TextEncoder();

/** Text for the wire: a JSON payload has no raw line break, so one `data:` line holds it. */
export function encodeFrame(lines: string): Uint8Array {
  return encoder.encode(lines);
}

/**
 * Several events' frames as one chunk: a stream writes a page of events (a
 * transaction's fill, offer and market changes) to its socket once, not once
 * an event. One event's frame is returned as it is, not copied.
 */
export function joinFrames(events: readonly FeedEvent[]): Uint8Array {
  if (events.length === 1) return events[0]!.frame;
  let size = 0;
  for (const event of events) size += event.frame.byteLength;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const event of events) {
    joined.set(event.frame, at);
    at += event.frame.byteLength;
  }
  return joined;
}

export function eventFrame(id: bigint, kind: string, payload: string): Uint8Array {
  return encodeFrame(`id: ${id}\nevent: ${kind}\ndata: ${payload}\n\n`);
}
