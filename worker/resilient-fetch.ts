import type { Logger } from "pino";
import { RateBudget, sleep } from "./rate-budget";

export interface ResilientFetchOptions {
  budget: RateBudget;
  timeoutMs: number;
  /** Aborted at shutdown: stop retrying and fail the call. */
  signal: AbortSignal;
  log: Logger;
  /** Counts every retry, by reason, for logs and tests. */
  onRetry?: (reason: string) => void;
}

export class ShutdownError extends Error {
  override name = "ShutdownError";
}

const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 30_000;

/** Exponential backoff with full jitter. */
export function backoff(attempt: number): number {
  return Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
}

/** A 429's wait: retry-after (seconds or an HTTP date), else x-ratelimit-reset, else backoff. */
export function retryAfterMs(headers: Headers, attempt: number): number {
  const retryAfter = headers.get("retry-after");
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const reset = Number(headers.get("x-ratelimit-reset"));
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, (reset > 1e12 ? reset : reset * 1000) - Date.now());
  return backoff(attempt) + 1000;
}

/** How many calls a JSON-RPC body carries (a batch counts each of its calls against the budget). */
function callCount(body: unknown): number {
  if (typeof body !== "string" || !body.startsWith("[")) return 1;
  try {
    return (JSON.parse(body) as unknown[]).length;
  } catch {
    return 1;
  }
}

/**
 * The fetch web3.js's Connection sends every JSON-RPC request through: it
 * keeps to the request budget, bounds each attempt by a timeout, and retries
 * 429 (after the wait the provider asks for), 5xx, dropped connections,
 * timeouts and bodies that are not JSON, forever, with jittered exponential
 * backoff, until it gets a JSON answer or the worker shuts down. A signature
 * is never skipped because a request failed.
 */
export function resilientFetch(options: ResilientFetchOptions): typeof fetch {
  const { budget, timeoutMs, signal, log } = options;
  return async (input, init) => {
    const calls = callCount(init?.body);
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw new ShutdownError("the worker is shutting down");
      await budget.take(calls);
      let reason: string;
      let wait: number;
      try {
        const response = await fetch(input, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
        if (response.status === 429) {
          reason = "429";
          wait = retryAfterMs(response.headers, attempt);
          await response.arrayBuffer().catch(() => {});
        } else if (response.status >= 500) {
          reason = `http ${response.status}`;
          wait = backoff(attempt);
          await response.arrayBuffer().catch(() => {});
        } else {
          const text = await response.text();
          try {
            JSON.parse(text);
            return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
          } catch {
            reason = "malformed json";
            wait = backoff(attempt);
          }
        }
      } catch (error) {
        if (signal.aborted) throw new ShutdownError("the worker is shutting down");
        reason = (error as Error).name === "TimeoutError" ? "timeout" : `network: ${(error as Error).message}`;
        wait = backoff(attempt);
      }
      options.onRetry?.(reason);
      log.warn({ reason, attempt, waitMs: Math.round(wait) }, "rpc request failed; retrying");
      await sleep(wait, signal);
    }
  };
}
