import type postgres from "postgres";
import { encodeFrame, joinFrames, type FeedEvent, type FeedFilter } from "./events";
import type { FeedHub } from "./hub";
import { newestId, PAGE_SIZE, readMatching, type FeedPage } from "./log";

export interface StreamOptions {
  filter: FeedFilter;
  /** The id to resume after (Last-Event-ID or ?after=); null: from now. */
  after: bigint | null;
  retryMs: number;
  heartbeatMs: number;
  /** Bytes that may wait for the reader in memory; beyond them it is served from the log. */
  queueBytes: number;
  /** A reader whose queue stays full this long is cut off. */
  stallMs: number;
  signal: AbortSignal;
  /** Called once when the stream ends, however it ends. */
  onClose(reason: "ended" | "cut_off"): void;
}

/** Ends the response without an error log: Next takes an AbortError for a client that went away. */
class SlowReaderError extends Error {
  override name = "AbortError";
  constructor() {
    super("the reader did not read: cut off; resume with Last-Event-ID");
  }
}

const HEARTBEAT = encodeFrame(":\n\n");

/** Why a resume id cannot be served from the log: the client must refetch. */
function resetReason(after: bigint, page: FeedPage): string | null {
  if (after < page.prunedThrough) return `events after ${after} are no longer kept (retention); refetch, then follow the stream`;
  if (after > page.newest) return `event id ${after} is unknown to this feed (the index was reset?); refetch, then follow the stream`;
  return null;
}

/**
 * A Server-Sent Events stream of the feed, in two modes. Live: the hub's
 * events are queued for the reader as they come. From the log: the stream
 * reads its events from feed_events in pages, one page whenever the reader
 * has taken the last, while the hub's events wait in a bounded buffer (dropped
 * when it fills: the log has them). A stream starts from the log when it
 * resumes, and falls back to it whenever its reader lets the queue fill (a
 * burst, a slow client), so memory per stream stays bounded and nothing is
 * lost or sent twice (each id once, in order). A reader that takes nothing
 * for `stallMs` while its queue is full is cut off; it resumes with its last id.
 * The first read happens before this resolves, so a database that is away
 * fails the request (503) rather than opening an empty stream.
 */
export async function openFeedStream(hub: FeedHub, sql: postgres.Sql, options: StreamOptions): Promise<ReadableStream<Uint8Array>> {
  const { filter, queueBytes } = options;
  await hub.start();

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let live = false;
  let lastSent = 0n;
  /** The hub's events while the stream reads the log. */
  let buffered: FeedEvent[] = [];
  let bufferedBytes = 0;
  /** The buffer was dropped since the last read of the log began: read again before going live. */
  let dropped = false;
  let room: (() => void) | null = null;
  let heartbeat: NodeJS.Timeout | undefined;

  const hasRoom = () => (controller.desiredSize ?? 0) > 0;
  const finish = (reason: "ended" | "cut_off") => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    options.signal.removeEventListener("abort", onAbort);
    room?.();
    buffered = [];
    options.onClose(reason);
  };
  const cutOff = () => {
    if (closed) return;
    finish("cut_off");
    controller.error(new SlowReaderError());
  };
  const onAbort = () => {
    if (closed) return;
    finish("ended");
    try {
      controller.close();
    } catch {
      // already closed by the reader's cancel
    }
  };
  /** Events in id order, each once: those at or below lastSent were already sent; the rest go in one chunk. */
  const send = (events: readonly FeedEvent[], joined?: Uint8Array) => {
    if (closed || events.length === 0) return;
    const fresh = events[0]!.id > lastSent ? events : events.filter((event) => event.id > lastSent);
    if (fresh.length === 0) return;
    lastSent = fresh.at(-1)!.id;
    controller.enqueue(fresh === events && joined ? joined : joinFrames(fresh));
  };
  const buffer = (event: FeedEvent) => {
    buffered.push(event);
    bufferedBytes += event.frame.byteLength;
    if (bufferedBytes > queueBytes) {
      buffered = [];
      bufferedBytes = 0;
      dropped = true;
    }
  };
  /** Resolves when the reader has taken enough to leave room, or cuts the stream off after `stallMs`. */
  const waitForRoom = async () => {
    while (!closed && !hasRoom()) {
      const took = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), options.stallMs);
        room = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      room = null;
      if (!took) cutOff();
    }
  };

  /** Sends from the log after lastSent until caught up, then the buffer, then live. */
  const followLog = async (first: FeedPage | null) => {
    try {
      let page = first;
      for (;;) {
        if (!page) {
          await waitForRoom();
          if (closed) return;
          dropped = false;
          page = await readMatching(sql, lastSent, filter);
          if (resetReason(lastSent, page)) return cutOff(); // pruned under a very slow reader: told when it resumes
        }
        send(page.events);
        const caughtUp = page.events.length < PAGE_SIZE && !dropped;
        page = null;
        if (closed) return;
        if (!caughtUp) continue;
        live = true;
        const pending = buffered;
        buffered = [];
        bufferedBytes = 0;
        deliverLive(pending);
        return;
      }
    } catch {
      // The database went away: end the stream; the client resumes from its last id.
      onAbort();
    }
  };
  const deliverLive = (events: readonly FeedEvent[], joined?: Uint8Array) => {
    if (!live) {
      for (const event of events) buffer(event);
      return;
    }
    send(events, joined);
    if (!closed && (controller.desiredSize ?? 0) < 0) {
      // The reader fell behind: from here it is served from the log, at its own pace.
      live = false;
      void followLog(null);
    }
  };

  const unsubscribe = hub.subscribe({
    filter,
    deliver: (events, frames) => {
      if (!closed) deliverLive(events, frames);
    },
  });

  let opening = `: offer-book live feed\nretry: ${options.retryMs}\n\n`;
  let first: FeedPage | null = null;
  try {
    if (options.after === null) {
      // From now: what is committed now is the client's starting point; later events reach it through the hub.
      lastSent = await newestId(sql);
      opening += `id: ${lastSent}\n\n`; // sets the client's Last-Event-ID without an event
      first = { events: [], prunedThrough: 0n, newest: lastSent };
    } else {
      first = await readMatching(sql, options.after, filter);
      const reset = resetReason(options.after, first);
      if (reset) {
        lastSent = first.newest;
        opening += `id: ${lastSent}\nevent: reset\ndata: ${JSON.stringify({ reason: reset })}\n\n`;
        first = { events: [], prunedThrough: 0n, newest: lastSent };
      } else {
        lastSent = options.after;
      }
    }
  } catch (error) {
    unsubscribe();
    throw error;
  }

  options.signal.addEventListener("abort", onAbort);
  if (options.signal.aborted) queueMicrotask(onAbort);
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        controller.enqueue(encodeFrame(opening));
        heartbeat = setInterval(() => {
          if (!closed && hasRoom()) controller.enqueue(HEARTBEAT);
        }, options.heartbeatMs);
        heartbeat.unref?.();
        void followLog(first);
      },
      pull() {
        room?.();
      },
      cancel() {
        finish("ended");
      },
    },
    { highWaterMark: queueBytes, size: (chunk) => chunk.byteLength },
  );
}
