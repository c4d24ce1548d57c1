import { exponentialBackoff } from "../lib/resilience";
import { idAfter, parseLiveEvent, type LiveEvent } from "./live-events";

// One Server-Sent Events connection to /v1/stream, kept open, paused and
// resumed: framework-free so the page provider and the wallet's notices share
// it. The browser's EventSource reconnects by itself after a network error
// (sending Last-Event-ID); when it gives up (an HTTP error such as 429, or the
// server gone), this reopens with `after=` the last id, backing off.

export type LiveStatus = "off" | "connecting" | "live" | "reconnecting" | "paused";

/** The part of the browser's EventSource this uses. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((this: never, ev: Event) => unknown) | null;
  onerror: ((this: never, ev: Event) => unknown) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

const CLOSED = 2;
const EVENT_TYPES = ["fill", "offer", "revoke", "candle", "reset"] as const;

export interface LiveConnectionOptions {
  /** The stream's address, resuming after an id when one is known. */
  url(after: string | null): string;
  onEvent(event: LiveEvent): void;
  onStatus(status: LiveStatus): void;
  /** The stream is open; `resumed` when it continues from a known id (nothing was missed). */
  onOpen?(resumed: boolean): void;
  createSource?(url: string): EventSourceLike;
  /** Wait before reopening after the browser gave up, by attempt (0, 1, …). */
  backoffMs?(attempt: number): number;
}

const defaultBackoff = exponentialBackoff({ baseMs: 1_000, maxMs: 30_000 });

export class LiveConnection {
  private source: EventSourceLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private everOpen = false;
  private current: LiveStatus = "off";
  /** The newest id applied: events at or before it are not applied again. */
  lastId: string | null = null;

  constructor(private readonly options: LiveConnectionOptions) {}

  get status(): LiveStatus {
    return this.current;
  }

  /** Opens (or reopens) the stream, resuming after the last id applied. */
  start(): void {
    this.clear();
    this.open();
  }

  /** Closes the stream and says so ("paused", e.g. the tab is hidden); start() resumes. */
  pause(): void {
    this.clear();
    this.setStatus("paused");
  }

  stop(): void {
    this.clear();
    this.setStatus("off");
  }

  private open(): void {
    const after = this.lastId;
    const create = this.options.createSource ?? ((url: string) => new EventSource(url) as unknown as EventSourceLike);
    const source = create(this.options.url(after));
    this.source = source;
    this.setStatus(this.everOpen ? "reconnecting" : "connecting");
    let resumed = after !== null;
    source.onopen = () => {
      if (this.source !== source) return;
      this.attempt = 0;
      this.everOpen = true;
      this.setStatus("live");
      this.options.onOpen?.(resumed);
      // The browser's own reconnects send Last-Event-ID: they resume too.
      resumed = true;
    };
    source.onerror = () => {
      if (this.source !== source) return;
      if (source.readyState !== CLOSED) {
        this.setStatus("reconnecting");
        return;
      }
      source.close();
      this.source = null;
      this.setStatus("reconnecting");
      this.timer = setTimeout(() => {
        this.timer = null;
        this.open();
      }, (this.options.backoffMs ?? defaultBackoff)(this.attempt++));
    };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        if (this.source !== source) return;
        const event = parseLiveEvent(type, message.lastEventId, message.data);
        if (!event) return;
        if (event.id !== "") {
          if (!idAfter(event.id, this.lastId)) return;
          this.lastId = event.id;
        }
        this.options.onEvent(event);
      });
    }
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.source?.close();
    this.source = null;
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.options.onStatus(status);
  }
}
