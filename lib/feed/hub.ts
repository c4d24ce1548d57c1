import type postgres from "postgres";
import { FEED_CHANNEL } from "../db/writes/feed";
import { joinFrames, matches, type FeedEvent, type FeedFilter } from "./events";
import { newestId, PAGE_SIZE, readAfter } from "./log";

export interface FeedSubscriber {
  filter: FeedFilter;
  /**
   * Called once a page of the log with the page's matching events (in id
   * order, at least one) and their frames joined in one chunk; must not throw.
   */
  deliver(events: readonly FeedEvent[], frames: Uint8Array): void;
}

export interface HubOptions {
  /** A read of the log failed (the database away); the hub tries again after `retryMs`. */
  onError?(error: unknown): void;
  retryMs?: number;
}

/**
 * One per web process: a LISTEN connection to the worker's notifications and
 * one reader of the log that fans each new event out to the streams whose
 * filter it matches. A notification only says "read now": the hub reads
 * `id > last` from the log, on every notification and on every (re)connect of
 * the listening connection, so a dropped connection or a lost notification
 * delays events but never loses one, and every process delivers the same.
 */
export class FeedHub {
  private last: bigint | null = null;
  private readonly subscribers = new Set<FeedSubscriber>();
  private started: Promise<void> | null = null;
  private reading = false;
  private again = false;
  private retry: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  /** Notifications and (re)connects of the listening connection so far: any change to the index bumps it. */
  private changes = 0;
  private listening = false;

  constructor(
    private readonly sql: postgres.Sql,
    private readonly options: HubOptions = {},
  ) {}

  /** Listens and learns the log's head; resolves once live. A failed start is tried afresh on the next call. */
  start(): Promise<void> {
    this.started ??= this.listen().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  private async listen(): Promise<void> {
    const listening = await this.sql.listen(
      FEED_CHANNEL,
      (payload) => {
        this.changes++;
        // Already read (another notification's read covered it): nothing to do.
        if (this.last !== null && /^\d+$/.test(payload) && BigInt(payload) <= this.last) return;
        void this.catchUp();
      },
      // Also on every reconnect: whatever was committed while the connection was down is read now.
      () => {
        this.changes++;
        void this.catchUp();
      },
    );
    this.unlisten = listening.unlisten;
    this.listening = true;
    // Before the first read the head is learnt once: the feed starts from now, not from its history.
    this.last ??= await newestId(this.sql);
    await this.catchUp();
  }

  /**
   * A count that moves whenever the index may have changed (a notification,
   * or a reconnect after which notifications may have been missed); null
   * until the hub listens.
   */
  changeCount(): number | null {
    return this.listening ? this.changes : null;
  }

  /** The newest id read from the log (and so streamed); null until the hub has learnt the head. */
  newest(): bigint | null {
    return this.last;
  }

  subscribe(subscriber: FeedSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Reads the log from the last id to its end and fans it out; one read at a time, repeated when asked meanwhile. */
  private async catchUp(): Promise<void> {
    if (this.last === null) return; // the start's own read comes next
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        for (;;) {
          const events = await readAfter(this.sql, this.last);
          if (events.length > 0) {
            this.last = events.at(-1)!.id;
            this.fanOut(events);
          }
          if (events.length < PAGE_SIZE) break;
        }
      } while (this.again);
    } catch (error) {
      this.options.onError?.(error);
      this.retry ??= setTimeout(() => {
        this.retry = null;
        void this.catchUp();
      }, this.options.retryMs ?? 1000);
      this.retry.unref?.();
    } finally {
      this.reading = false;
    }
  }

  /**
   * A page to every subscriber it matches, as one chunk each: with a
   * thousand streams, a write per event per stream cost the web process more
   * than everything else in a delivery (docs/scale.md). Streams that take
   * the whole page (no filter, the usual case) share one joined chunk.
   */
  private fanOut(events: readonly FeedEvent[]): void {
    let whole: Uint8Array | null = null;
    for (const s of this.subscribers) {
      const taken = events.filter((event) => matches(event, s.filter));
      if (taken.length === 0) continue;
      const frames = taken.length === events.length ? (whole ??= joinFrames(events)) : joinFrames(taken);
      s.deliver(taken, frames);
    }
  }

  async stop(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.listening = false;
    await this.unlisten?.().catch(() => {});
    this.subscribers.clear();
  }
}
