import { setMaxListeners } from "node:events";
import type { Logger } from "pino";
import { Agent, request } from "undici";
import { rateLimitDelayMs, sleep } from "../lib/resilience";
import type { OutageLog } from "./outage";
import type { RateBudget } from "./rate-budget";
import { retryDelay } from "./retry-delay";

export interface ResilientFetchOptions {
  budget: RateBudget;
  timeoutMs: number;
  /** Aborted at shutdown: stop retrying and fail the call. */
  signal: AbortSignal;
  log: Logger;
  /** Counts every retry, by reason, for logs and tests. */
  onRetry?: (reason: string) => void;
  /** Told of each failure and each answer: says so once per interval, not per retry. */
  outage?: OutageLog;
}

export class ShutdownError extends Error {
  override name = "ShutdownError";
}

type HeaderValue = string | string[] | undefined;

/** A 429's wait: what the provider asks for (retry-after, x-ratelimit-reset), else a back-off and a second more. */
function rateLimitWaitMs(headers: Record<string, HeaderValue>, attempt: number): number {
  const get = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };
  return rateLimitDelayMs({ get }, Date.now()) ?? retryDelay(attempt) + 1000;
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

/** What web3.js's JSON-RPC client reads of a response. */
type RpcResponse = Pick<Response, "ok" | "status" | "statusText" | "text">;

/**
 * The fetch web3.js's Connection sends every JSON-RPC request through: it
 * keeps to the request budget, bounds each attempt by a timeout (the body
 * included), and retries 429 (after the wait the provider asks for), 5xx,
 * dropped connections and timeouts, forever, with jittered exponential
 * backoff, until the worker shuts down. Bodies that are not JSON fail the
 * call in the JSON-RPC client and are retried by the caller. A signature is
 * never skipped because a request failed.
 *
 * It speaks HTTP through undici's request API on kept-alive connections
 * rather than through the global fetch: a backfill sends a request per
 * transaction, and fetch's web streams cost several times the request itself.
 */
export function resilientFetch(options: ResilientFetchOptions): typeof fetch {
  const { budget, timeoutMs, signal, log } = options;
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  // Every request in flight listens for shutdown: as many listeners as the concurrency, not a leak.
  setMaxListeners(0, signal);
  const send = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<RpcResponse> => {
    const calls = budget.enabled ? callCount(init?.body) : 1;
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw new ShutdownError("the worker is shutting down");
      await budget.take(calls);
      let reason: string;
      let wait: number;
      // One controller per attempt, aborted by the timeout or by shutdown.
      const attemptController = new AbortController();
      const timer = setTimeout(() => attemptController.abort(new DOMException("timed out", "TimeoutError")), timeoutMs);
      const onShutdown = () => attemptController.abort();
      signal.addEventListener("abort", onShutdown, { once: true });
      try {
        const response = await request(String(input), {
          method: "POST",
          headers: init?.headers as Record<string, string>,
          body: init?.body as string,
          signal: attemptController.signal,
          dispatcher,
        });
        const status = response.statusCode;
        if (status === 429) {
          reason = "429";
          wait = rateLimitWaitMs(response.headers, attempt);
          await response.body.dump().catch(() => {});
        } else if (status >= 500) {
          reason = `http ${status}`;
          wait = retryDelay(attempt);
          await response.body.dump().catch(() => {});
        } else {
          // The body is read here, within the timeout, and parsed once by the
          // JSON-RPC client; a body cut short or not JSON fails that call,
          // which the caller retries.
          const body = await response.body.text();
          options.outage?.ok();
          return { ok: status >= 200 && status < 300, status, statusText: String(status), text: async () => body };
        }
      } catch (error) {
        if (signal.aborted) throw new ShutdownError("the worker is shutting down");
        reason = (error as Error).name === "TimeoutError" || attemptController.signal.aborted ? "timeout" : `network: ${(error as Error).message}`;
        wait = retryDelay(attempt);
      } finally {
        clearTimeout(timer);
        signal.removeEventListener("abort", onShutdown);
      }
      options.onRetry?.(reason);
      options.outage?.failed(new Error(reason));
      log.debug({ reason, attempt, waitMs: Math.round(wait) }, "rpc request failed; retrying");
      await sleep(wait, signal);
    }
  };
  return send as unknown as typeof fetch;
}
