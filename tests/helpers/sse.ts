import { createParser, type EventSourceMessage } from "eventsource-parser";

/** An open GET /v1/stream, read as an EventSource would (eventsource-parser), every event kept. */
export interface StreamReader {
  status: number;
  headers: Headers;
  events: EventSourceMessage[];
  /** Everything received, as text (comments and retry: included). */
  raw(): string;
  /** Resolves once `count` events have arrived (fails after `timeoutMs`, naming what did arrive). */
  waitForCount(count: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  /** Resolves once an event satisfies `check`. */
  waitFor(check: (e: EventSourceMessage) => boolean, timeoutMs?: number): Promise<EventSourceMessage>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(baseUrl: string, pathAndQuery: string, headers: Record<string, string> = {}): Promise<StreamReader> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}${pathAndQuery}`, { headers, signal: abort.signal });
  const events: EventSourceMessage[] = [];
  let raw = "";
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (e) => {
      events.push(e);
      for (const w of waiters) w();
    },
  });
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        raw += text;
        parser.feed(text);
      }
    } catch {
      // aborted by close(), or the server cut the connection
    }
    for (const w of waiters) w();
  })();
  let done = false;
  void ended.then(() => (done = true));
  const waitFor = (check: (e: EventSourceMessage) => boolean, timeoutMs = 60_000) =>
    new Promise<EventSourceMessage>((resolve, reject) => {
      let scanned = 0; // each event is checked once, however many arrive
      const test = () => {
        let found: EventSourceMessage | undefined;
        for (; scanned < events.length && !found; scanned++) if (check(events[scanned]!)) found = events[scanned];
        if (found) {
          waiters.delete(test);
          clearTimeout(timer);
          resolve(found);
        } else if (done) {
          waiters.delete(test);
          clearTimeout(timer);
          reject(new Error(`the stream ended before the event came; got ${events.length}: ${describe(events)}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(test);
        reject(new Error(`no such event within ${timeoutMs} ms; got ${events.length}: ${describe(events)}`));
      }, timeoutMs);
      waiters.add(test);
      test();
    });
  return {
    status: response.status,
    headers: response.headers,
    events,
    raw: () => raw,
    ended,
    waitFor,
    async waitForCount(count, timeoutMs = 60_000) {
      if (count > 0) await waitFor(() => events.length >= count, timeoutMs);
      return events.slice(0, count);
    },
    close: () => abort.abort(),
  };
}

function describe(events: EventSourceMessage[]): string {
  return events
    .slice(-10)
    .map((e) => `${e.id}:${e.event}`)
    .join(", ");
}
