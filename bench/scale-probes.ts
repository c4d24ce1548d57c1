import postgres from "postgres";
import { openStream, type StreamReader } from "../tests/helpers/sse";

// What bench/scale.ts measures with: streams that resume as EventSource does,
// a load loop, the web's metrics, percentiles.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A stream that reconnects with Last-Event-ID when cut, keeping every id it got and when. */
export class ResumingStream {
  ids: bigint[] = [];
  received: { id: bigint; at: number }[] = [];
  reconnects = 0;
  private reader: StreamReader | null = null;
  private closed = false;
  private seen = 0;

  constructor(
    private readonly urls: () => string,
    private readonly path: string,
  ) {}

  async open(after?: bigint): Promise<void> {
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
      const id = BigInt(e.id);
      this.ids.push(id);
      this.received.push({ id, at: Date.now() });
    }
  }

  close(): void {
    this.closed = true;
    this.collect();
    this.reader?.close();
  }
}

/** Gaps and duplicates of `ids` against the log's ids in (after, through]. */
export function compareToLog(ids: bigint[], log: bigint[], after: bigint, through: bigint): { gaps: number; duplicates: number } {
  const got = ids.filter((id) => id > after && id <= through);
  const seen = new Set<bigint>();
  let duplicates = 0;
  for (const id of got) {
    if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  const gaps = log.filter((id) => id > after && id <= through && !seen.has(id)).length;
  return { gaps, duplicates };
}

/** The log's ids after `after` that a stream without `types` carries (candles are asked for by name). */
export async function logIds(url: string, after: bigint): Promise<{ ids: bigint[]; createdAt: Map<bigint, number> }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const rows = await sql<{ id: string; at: number }[]>`select id::text, extract(epoch from created_at) * 1000 as at from feed_events where id > ${after.toString()}::bigint and kind <> 'candle' order by id`;
  await sql.end();
  return { ids: rows.map((r) => BigInt(r.id)), createdAt: new Map(rows.map((r) => [BigInt(r.id), Number(r.at)])) };
}

export async function newestFeedId(url: string): Promise<bigint> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] = await sql<{ id: string }[]>`select coalesce(max(id), 0)::text as id from feed_events`;
  await sql.end();
  return BigInt(row!.id);
}

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
