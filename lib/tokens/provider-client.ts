import type { z } from "zod";
import { rateLimitDelayMs } from "../resilience";
import type { OutboundBudget } from "./budget";
import { UpstreamError } from "./errors";
import { providerTokenListSchema, type ProviderToken } from "./provider-schema";

/** The provider's documented ceiling on mints per search call. */
export const MAX_MINTS_PER_SEARCH = 100;

export interface ProviderClient {
  /** Tokens the provider knows among `mints` (at most 100), by mint; unknown mints are absent. */
  searchMints(mints: readonly string[]): Promise<Map<string, ProviderToken>>;
  topOrganic24h(limit: number): Promise<ProviderToken[]>;
}

export type CallKind = "search" | "trending";

export interface ProviderClientOptions {
  apiUrl: string;
  apiKey?: string;
  timeoutMs: number;
  budget: OutboundBudget;
  /** Back-off for a 429 that names no reset time. */
  defaultBackoffMs: number;
  /** Upper bound on a back-off a provider asks for, so a bad header cannot silence us for a day. */
  maxBackoffMs?: number;
  now: () => number;
  onCall?(kind: CallKind): void;
  onFailure?(kind: CallKind, error: UpstreamError): void;
  /** Every call's outcome once it settles. */
  onOutcome?(outcome: "ok" | "error" | "rate_limited"): void;
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const base = options.apiUrl.replace(/\/+$/, "");
  const headers: Record<string, string> = { accept: "application/json" };
  // An empty x-api-key reads as a bad key to the gateway: send the header only with a key.
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const maxBackoffMs = options.maxBackoffMs ?? 10 * 60_000;

  async function get<S extends z.ZodType>(kind: CallKind, path: string, schema: S): Promise<z.infer<S>> {
    await options.budget.acquire();
    options.onCall?.(kind);
    try {
      const body = await send(path, schema);
      options.onOutcome?.("ok");
      return body;
    } catch (error) {
      const upstream =
        error instanceof UpstreamError ? error : new UpstreamError("network", `provider unreachable: ${String(error)}`, undefined, { cause: error });
      options.onOutcome?.(upstream.failure === "rate_limited" ? "rate_limited" : "error");
      options.onFailure?.(kind, upstream);
      throw upstream;
    }
  }

  async function send<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
    let response: Response;
    try {
      response = await fetch(base + path, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const name = (error as Error).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new UpstreamError("timeout", `provider did not answer within ${options.timeoutMs} ms`, undefined, { cause: error });
      }
      throw new UpstreamError("network", `provider unreachable: ${(error as Error).message}`, undefined, { cause: error });
    }
    if (response.status === 429) {
      void response.body?.cancel();
      const asked = rateLimitDelayMs(response.headers, Date.now()) ?? options.defaultBackoffMs;
      const delay = Math.min(Math.max(asked, 1000), maxBackoffMs);
      // The call is not retried: this request falls back to cache or chain, and the budget stays shut until the window reopens.
      await options.budget.pause(delay).catch(() => {});
      throw new UpstreamError("rate_limited", `provider rate limit; backing off ${Math.round(delay / 1000)} s`, 429, { retryAfterMs: delay });
    }
    if (!response.ok) {
      void response.body?.cancel();
      throw new UpstreamError("http", `provider answered ${response.status}`, response.status);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      const name = (error as Error).name;
      if (name === "TimeoutError" || name === "AbortError") throw new UpstreamError("timeout", "provider body timed out", undefined, { cause: error });
      throw new UpstreamError("malformed", "provider body is not JSON", response.status, { cause: error });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new UpstreamError("malformed", `provider body does not match the schema: ${parsed.error.issues[0]?.message ?? ""}`, response.status);
    }
    return parsed.data;
  }

  return {
    async searchMints(mints) {
      if (mints.length === 0) return new Map();
      if (mints.length > MAX_MINTS_PER_SEARCH) throw new RangeError(`at most ${MAX_MINTS_PER_SEARCH} mints per search`);
      const query = mints.map(encodeURIComponent).join(",");
      const tokens = await get("search", `/tokens/v2/search?query=${query}`, providerTokenListSchema);
      // A search may also match by name or symbol; only exact mints answer the question asked.
      const asked = new Set(mints);
      return new Map(tokens.filter((t) => asked.has(t.id)).map((t) => [t.id, t]));
    },
    async topOrganic24h(limit) {
      return get("trending", `/tokens/v2/toporganicscore/24h?limit=${limit}`, providerTokenListSchema);
    },
  };
}
