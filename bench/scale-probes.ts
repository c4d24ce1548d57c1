import postgres from "postgres";
import { openStream, type StreamReader } from "../tests/helpers/sse";

// What bench/scale.ts measures with: a reference stream that resumes as
// EventSource does, the feed's log with commit times, a load loop, the web's
// metrics, percentiles.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * A stream read by a real parser (eventsource-parser, as the suites read
 * them) that reconnects with Last-Event-ID when cut, keeping every id: the
 * check beside bench:scale's light readers (bench/scale-streams.ts).
 */
export class ResumingStream {
  ids: number[] = [];
  reconnects = 0;
  private reader: StreamReader | null = null;
  private closed = false;
  private seen = 0;

  constructor(
    private readonly urls: () => string,
    private readonly path: string,
  ) {}

  async open(after?: number): Promise<void> {
    const headers: Record<string, string> = after === undefined ? {} : { "last-event-id": after.toString() };
    const reader = await openStream(this.urls(), this.path, headers);
    this.reader = reader;
    this.seen = 0;
    const poll = setInterval(() => this.collect(), 20);
    void reader.ended.then(async () => {
      clearInterval(poll);
      this.collect();
      if (this.closed) return;
      this.reconnects++;
      for (;;) {
        try {
          await this.open(this.ids.at(-1));
          return;
        } catch {
          await sleep(200);
        }
      }
    });
  }

  private collect(): void {
    const events = this.reader?.events ?? [];
    for (; this.seen < events.length; this.seen++) {
      const e = events[this.seen]!;
      if (!e.id) continue;
      this.ids.push(Number(e.id));
    }
  }

  close(): void {
    this.closed = true;
    this.collect();
    this.reader?.close();
  }
}

/** Gaps and duplicates of `ids` against the log's ids in (after, through]. */
export function compareToLog(ids: ArrayLike<number>, log: readonly number[], after: number, through: number): { gaps: number; duplicates: number } {
  const seen = new Set<number>();
  let duplicates = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id <= after || id > through) continue;
    if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  let gaps = 0;
  for (const id of log) if (id > after && id <= through && !seen.has(id)) gaps++;
  return { gaps, duplicates };
}

export interface FeedLog {
  /** The ids after `after` that a stream without `types` carries (candles are asked for by name). */
  ids: number[];
  /** Each id's commit time (ms since the epoch, PostgreSQL's clock: the same system clock as Date.now()). */
  committedAt: Map<number, number>;
  /** "commit" (track_commit_timestamp is on) or "transaction start" (created_at, now()). */
  stamp: string;
}

export async function feedLog(url: string, after: number): Promise<FeedLog> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [setting] = await sql<{ on: boolean }[]>`select current_setting('track_commit_timestamp') = 'on' as on`;
    const at = setting!.on ? sql`pg_xact_commit_timestamp(xmin)` : sql`created_at`;
    const rows = await sql<{ id: string; at: number }[]>`select id::text, (extract(epoch from ${at}) * 1000)::float8 as at from feed_events
      where id > ${after}::bigint and kind <> 'candle' order by id`;
    return { ids: rows.map((r) => Number(r.id)), committedAt: new Map(rows.map((r) => [Number(r.id), r.at])), stamp: setting!.on ? "commit" : "transaction start" };
  } finally {
    await sql.end();
  }
}

export { newestFeedId } from "../scripts/scale/leader-kill";

/** A metric's value (summed over matching series) from a Prometheus text page. */
export async function metric(baseUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^(\w+)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    if (!Object.entries(labels).every(([k, v]) => (match[2] ?? "").includes(`${k}="${v}"`))) continue;
    sum += Number(match[3]);
  }
  return sum;
}

export interface LoadResult {
  count: number;
  statuses: Map<number, number>;
  latencies: number[];
  /** When each non-200 came, relative to the start. */
  failures: { at: number; status: number }[];
}

/** `concurrency` loops of GET `url()` for `ms`. */
export async function load(url: () => string, ms: number, concurrency: number, headers: Record<string, string> = {}): Promise<LoadResult> {
  const result: LoadResult = { count: 0, statuses: new Map(), latencies: [], failures: [] };
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        let status = 0;
        try {
          const response = await fetch(url(), { headers, signal: AbortSignal.timeout(5000) });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          status = 0;
        }
        result.latencies.push(performance.now() - t);
        result.count++;
        result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
        if (status !== 200 && status !== 304) result.failures.push({ at: t - start, status });
      }
    }),
  );
  return result;
}

export const statusLine = (r: LoadResult) => [...r.statuses].map(([s, n]) => `${s || "error"}×${n}`).join(" ");
