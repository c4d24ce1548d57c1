import { Agent, get, type ClientRequest } from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import { SseIdScanner } from "./sse-ids";

// One thread of bench/scale-streams.ts's readers: many GET /v1/stream over
// raw node:http, each scanned for ids only (bench/sse-ids.ts). Each event is
// kept as its id and the Date.now() its chunk arrived at (one clock read per
// chunk). A stream cut by the server resumes with Last-Event-ID at once, as
// EventSource does; a refused connection is retried after 200 ms. The newest
// id each group (web process) has delivered to this thread is written to a
// shared array the bench reads while it runs. A thread opens its streams
// OPENING at a time.

export interface ThreadStream {
  host: string;
  port: number;
  path: string;
  /** Resume after this id (Last-Event-ID); null: from now. */
  after: number | null;
  group: number;
}

export interface ThreadData {
  streams: ThreadStream[];
  /** Float64 slots, `groups` per thread: this thread's newest id per group. */
  newest: SharedArrayBuffer;
  slot: number;
}

export interface StreamRecord {
  group: number;
  ids: Float64Array;
  at: Float64Array;
  reconnects: number;
}

export type ThreadMessage = { type: "ready" } | { type: "done"; records: StreamRecord[] };

/** Streams of a thread being opened at once. */
const OPENING = 16;
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

class Reader {
  ids = new Float64Array(256);
  at = new Float64Array(256);
  count = 0;
  reconnects = 0;
  private request: ClientRequest | null = null;
  private scanner = new SseIdScanner();
  private chunkAt = 0;
  private closed = false;
  private opened = false;
  private readonly onEvent = (id: number) => {
    if (this.count === this.ids.length) this.grow();
    this.ids[this.count] = id;
    this.at[this.count] = this.chunkAt;
    this.count++;
    if (id > this.newest[this.newestIndex]!) this.newest[this.newestIndex] = id;
  };

  constructor(
    private readonly spec: ThreadStream,
    private readonly newest: Float64Array,
    private readonly newestIndex: number,
    private readonly onOpened: () => void,
  ) {}

  open(): void {
    const last = this.count > 0 ? this.ids[this.count - 1]! : this.spec.after;
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (last !== null) headers["last-event-id"] = String(last);
    this.scanner = new SseIdScanner();
    let over = false;
    const again = (delayMs: number) => {
      if (over) return;
      over = true;
      if (this.closed) return;
      if (this.opened) this.reconnects++;
      if (delayMs === 0) this.open();
      else setTimeout(() => !this.closed && this.open(), delayMs);
    };
    const request = get({ host: this.spec.host, port: this.spec.port, path: this.spec.path, headers, agent }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        response.on("end", () => again(200));
        return;
      }
      if (!this.opened) {
        this.opened = true;
        this.onOpened();
      }
      response.on("data", (chunk: Buffer) => {
        this.chunkAt = Date.now();
        this.scanner.feed(chunk, this.onEvent);
      });
      response.on("end", () => again(0));
      response.on("error", () => again(0));
      response.on("close", () => again(0));
    });
    request.on("error", () => again(this.opened ? 0 : 200));
    this.request = request;
  }

  close(): StreamRecord {
    this.closed = true;
    this.request?.destroy();
    return { group: this.spec.group, ids: this.ids.slice(0, this.count), at: this.at.slice(0, this.count), reconnects: this.reconnects };
  }

  private grow(): void {
    const ids = new Float64Array(this.ids.length * 2);
    ids.set(this.ids);
    const at = new Float64Array(this.at.length * 2);
    at.set(this.at);
    this.ids = ids;
    this.at = at;
  }
}

const data = workerData as ThreadData;
const port = parentPort!;
const newest = new Float64Array(data.newest);
let waiting = data.streams.length;
const readers = data.streams.map(
  (spec) =>
    new Reader(spec, newest, data.slot + spec.group, () => {
      openNext();
      if (--waiting === 0) port.postMessage({ type: "ready" } satisfies ThreadMessage);
    }),
);
// Streams arrive a few at a time, as clients do: a thousand opens at once
// would each wait for a backlog read in the web's pool of ten connections.
let next = 0;
const openNext = () => {
  if (next < readers.length) readers[next++]!.open();
};
for (let i = 0; i < OPENING; i++) openNext();
if (readers.length === 0) port.postMessage({ type: "ready" } satisfies ThreadMessage);
port.on("message", (message: { type: "close" }) => {
  if (message.type !== "close") return;
  const records = readers.map((r) => r.close());
  port.postMessage({ type: "done", records } satisfies ThreadMessage, records.flatMap((r) => [r.ids.buffer as ArrayBuffer, r.at.buffer as ArrayBuffer]));
});
