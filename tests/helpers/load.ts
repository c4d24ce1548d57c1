import { Pool } from "undici";

/** What a stretch of load met: every answer's status, and the 5xx that broke the rules. */
export interface LoadReport {
  requests: number;
  rps: number;
  byStatus: Record<string, number>;
  /** Network errors and timeouts (no HTTP answer at all). */
  failures: number;
  /** 5xx answers other than a 503 carrying retry-after (the documented outage answer). */
  unexpected5xx: number;
  /** 503 answers with retry-after. */
  unavailable: number;
  p50: number;
  p99: number;
  /** Milliseconds from the start of the load to the last answer that was not 2xx/4xx, if any. */
  lastBadAtMs: number | null;
  /** A few of the unexpected answers, for the message. */
  samples: string[];
  /** The last few answers that were not 2xx/4xx: when, what and for which path. */
  lastBad: string[];
}

/** How long a load runs: for a time (the benches), for a number of answers (the suites), or until stopped. */
export interface LoadOptions {
  seconds?: number;
  requests?: number;
  connections: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** A load under way: its counts so far (for waiting on what it has met), and how to end it. */
export interface RunningLoad {
  /** Answers so far (any status), answers that were not whole (5xx, or none), and whole ones since the last that was not. */
  progress: { requests: number; unavailable: number; bad: number; wholeInARow: number };
  stop(): void;
  report: Promise<LoadReport>;
}

const quantile = (sorted: number[], q: number) => Math.round(10 * (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)) / 10;

/**
 * Closed-loop load: `connections` clients each send the next path as soon as
 * the previous answer arrived, until `seconds` pass, `requests` answers are in,
 * or stop(). Unlike autocannon's, every answer's status and retry-after are
 * kept, which the outage checks need.
 */
export function startLoad(baseUrl: string, paths: string[], options: LoadOptions): RunningLoad {
  const pool = new Pool(baseUrl, { connections: options.connections, pipelining: 1 });
  const started = performance.now();
  const deadline = options.seconds === undefined ? Infinity : started + options.seconds * 1000;
  const progress = { requests: 0, unavailable: 0, bad: 0, wholeInARow: 0 };
  let stopped = false;
  const running = () => !stopped && performance.now() < deadline && progress.requests < (options.requests ?? Infinity);
  const latencies: number[] = [];
  const byStatus: Record<string, number> = {};
  const samples: string[] = [];
  let failures = 0;
  let unexpected5xx = 0;
  let lastBadAtMs: number | null = null;
  const lastBad: string[] = [];
  const bad = (line: string) => {
    lastBadAtMs = performance.now() - started;
    progress.bad++;
    progress.wholeInARow = 0;
    lastBad.push(`${Math.round(lastBadAtMs)} ms: ${line}`);
    if (lastBad.length > 5) lastBad.shift();
  };
  let next = 0;
  const client = async () => {
    while (running()) {
      const path = paths[next++ % paths.length]!;
      const sent = performance.now();
      try {
        const answer = await pool.request({ path, method: "GET", headers: options.headers, headersTimeout: options.timeoutMs ?? 15_000, bodyTimeout: options.timeoutMs ?? 15_000 });
        const body = await answer.body.text();
        const status = answer.statusCode;
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        progress.requests++;
        if (status < 300) latencies.push(performance.now() - sent);
        if (status >= 500) {
          bad(`${status} ${path}: ${body.slice(0, 120)}`);
          if (status === 503 && answer.headers["retry-after"]) progress.unavailable++;
          else {
            unexpected5xx++;
            if (samples.length < 5) samples.push(`${status} ${path}: ${body.slice(0, 200)}`);
          }
        } else {
          progress.wholeInARow++;
        }
      } catch (error) {
        failures++;
        progress.requests++;
        bad(`no answer for ${path}: ${(error as Error).message}`);
        if (samples.length < 5) samples.push(`no answer for ${path}: ${(error as Error).message}`);
      }
    }
  };
  const report = (async (): Promise<LoadReport> => {
    await Promise.all(Array.from({ length: options.connections }, client));
    await pool.close();
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const requests = Object.values(byStatus).reduce((a, b) => a + b, 0);
    return {
      requests,
      rps: Math.round(requests / seconds),
      byStatus,
      failures,
      unexpected5xx,
      unavailable: progress.unavailable,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      lastBadAtMs,
      samples,
      lastBad,
    };
  })();
  return { progress, stop: () => void (stopped = true), report };
}

/** A load to its end (`seconds` or `requests`). */
export function runLoad(baseUrl: string, paths: string[], options: LoadOptions): Promise<LoadReport> {
  if (options.seconds === undefined && options.requests === undefined) throw new Error("runLoad needs seconds or requests");
  return startLoad(baseUrl, paths, options).report;
}
