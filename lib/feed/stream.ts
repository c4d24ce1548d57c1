import type postgres from "postgres";
import { encodeFrame, type FeedEvent, type FeedFilter } from "./events";
import type { FeedHub } from "./hub";
import { newestId, PAGE_SIZE, readMatching, type FeedPage } from "./log";

export interface StreamOptions {
  filter: FeedFilter;
  /** The id to resume after (Last-Event-ID or ?after=); null: from now. */
  after: bigint | null;
  retryMs: number;
  heartbeatMs: number;
  /** Bytes that may wait for the reader; beyond them the stream is cut off. */
  queueBytes: number;
  signal: AbortSignal;
  /** Called once when the stream ends, however it ends. */
  onClose(reason: "ended" | "cut_off"): void;
}

/** Ends the response without an error log: Next takes an AbortError for a client that went away. */
class SlowReaderError extends Error {
  override name = "AbortError";
  constructor() {
    super("the reader did not keep up with the stream: cut off; resume with Last-Event-ID");
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
 * A Server-Sent Events stream of the feed. Subscribes to the hub first (live
 * events wait in a bounded buffer), then sends the backlog after `after` from
 * the log in pages, then the buffered and live events: each id once, in order,
 * none skipped. The first page is read before this resolves, so a database
 * that is away fails the request (503) instead of an empty stream.
 */
export async function openFeedStream(hub: FeedHub, sql: postgres.Sql, options: StreamOptions): Promise<ReadableStream<Uint8Array>> {
  const { filter, queueBytes } = options;
  await hub.start();

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let live = false;
  let lastSent = 0n;
  /** Live events that arrived during the backlog. */
  let waiting: FeedEvent[] = [];
  let waitingBytes = 0;
  let room: (() => void) | null = null;
  let heartbeat: NodeJS.Timeout | undefined;

  const finish = (reason: "ended" | "cut_off") => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    options.signal.removeEventListener("abort", onAbort);
    room?.();
    waiting = [];
    options.onClose(reason);
  };
  const cutOff = () => {
    const wasClosed = closed;
    finish("cut_off");
    if (!wasClosed) controller.error(new SlowReaderError());
  };
  const send = (frame: Uint8Array) => {
    if (closed) return;
    controller.enqueue(frame);
    if ((controller.desiredSize ?? 0) < 0) cutOff();
  };
  const sendEvent = (event: FeedEvent) => {
    if (event.id <= lastSent) return;
    lastSent = event.id;
    send(event.frame);
  };

  const unsubscribe = hub.subscribe({
    filter,
    deliver(event) {
      if (closed) return;
      if (live) return sendEvent(event);
      waiting.push(event);
      waitingBytes += event.frame.byteLength;
      if (waitingBytes > queueBytes) cutOff();
    },
  });
  const onAbort = () => {
    if (closed) return;
    finish("ended");
    try {
      controller.close();
    } catch {
      // already closed by the reader's cancel
    }
  };

  let opening = `: offer-book live feed\nretry: ${options.retryMs}\n\n`;
  let first: FeedPage | null = null;
  try {
    if (options.after === null) {
      // From now: what is committed now is the client's starting point; later events reach it through the hub.
      lastSent = await newestId(sql);
      opening += `id: ${lastSent}\n\n`; // sets the client's Last-Event-ID without an event
    } else {
      first = await readMatching(sql, options.after, filter);
      const reset = resetReason(options.after, first);
      if (reset) {
        lastSent = first.newest;
        opening += `id: ${lastSent}\nevent: reset\ndata: ${JSON.stringify({ reason: reset })}\n\n`;
        first = null;
      } else {
        lastSent = options.after;
      }
    }
  } catch (error) {
    unsubscribe();
    throw error;
  }

  const backlog = async (page: FeedPage | null) => {
    try {
      while (page && !closed) {
        for (const event of page.events) sendEvent(event);
        if (page.events.length < PAGE_SIZE || closed) break;
        // A reader behind on a long backlog is waited for, not cut off: the log holds the rest.
        while (!closed && (controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (room = resolve));
        if (closed) break;
        page = await readMatching(sql, lastSent, filter);
        const reset = resetReason(lastSent, page);
        if (reset) return cutOff(); // pruned under a very slow reader: it resumes and is told
      }
      live = true;
      for (const event of waiting) sendEvent(event);
      waiting = [];
      waitingBytes = 0;
    } catch {
      // The database went away mid-backlog: end the stream; the client resumes from its last id.
      onAbort();
    }
  };

  options.signal.addEventListener("abort", onAbort);
  if (options.signal.aborted) queueMicrotask(onAbort);
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        controller.enqueue(encodeFrame(opening));
        heartbeat = setInterval(() => send(HEARTBEAT), options.heartbeatMs);
        heartbeat.unref?.();
        void backlog(first);
      },
      pull() {
        const wake = room;
        room = null;
        wake?.();
      },
      cancel() {
        finish("ended");
      },
    },
    { highWaterMark: queueBytes, size: (chunk) => chunk.byteLength },
  );
}
