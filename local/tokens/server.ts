import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sleep } from "../../lib/resilience";
import { THIN_TOKENS, WELL_KNOWN } from "./catalog";
import { jupiterToken, type JupiterToken, type TokenSpec } from "./jupiter-token";
import { ICON_PATH_PREFIX, iconSvg, localIconPath } from "./icons";

/**
 * How the stand-in answers token requests. Admin routes (`/_admin/*`) always answer.
 * - ok: as Jupiter would.
 * - rate-limit: 429 with `retry-after` (seconds) and `x-ratelimit-reset` (epoch seconds).
 * - fail: an error status (default 503).
 * - slow: as ok, after `delayMs`.
 * - malformed: 200 with a body that is not the Tokens V2 shape.
 */
export type StandinMode =
  | { kind: "ok" }
  | { kind: "rate-limit"; retryAfterSeconds?: number }
  | { kind: "fail"; status?: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "malformed" };

export interface StandinOptions {
  port?: number;
  host?: string;
  /**
   * Extra tokens (the local cluster's mints) known to search and, with `trending`, listed there.
   * One without an `icon` gets one drawn by the stand-in (`icon: null` for none).
   */
  extraTokens?: Array<TokenSpec & { trending?: boolean }>;
  /** Mints of the trending list in order; default: every well-known token plus trending extras, by organic score. */
  trending?: string[];
  /** The stand-in's own limit, enforced over a sliding window like Jupiter's. Default 30 per 60 000 ms (keyless tier). */
  limit?: number;
  windowMs?: number;
  /** When set, requests must carry this `x-api-key` (401 otherwise). An empty `x-api-key` is always refused. */
  apiKey?: string;
  mode?: StandinMode;
}

export interface StandinRequest {
  at: number;
  path: string;
  status: number;
  /** Mints in a search query. */
  mints?: number;
  apiKey?: string;
}

export interface StandinStats {
  /** Token requests received (admin routes excluded), whatever the answer. */
  requests: number;
  search: number;
  trending: number;
  /** Answered 429 by the stand-in's own limit (not by rate-limit mode). */
  overLimit: number;
  /** Answered 429 in rate-limit mode. */
  rateLimited: number;
  failed: number;
  /** Most requests received within any window of `windowMs` (the limit the client must respect). */
  maxInWindow: number;
  limit: number;
  windowMs: number;
  log: StandinRequest[];
}

export interface TokenStandin {
  url: string;
  port: number;
  setMode(mode: StandinMode | StandinMode["kind"]): void;
  stats(): StandinStats;
  /** Forget counters, the log and the limit window. */
  reset(): void;
  stop(): Promise<void>;
}

const CATEGORIES = new Set(["toporganicscore", "toptraded", "toptrending"]);
const INTERVALS = new Set(["5m", "1h", "6h", "24h"]);
const MAX_QUERY_MINTS = 100;
const LOG_CAP = 20_000;

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const normalizeMode = (mode: StandinMode | StandinMode["kind"]): StandinMode =>
  typeof mode === "string" ? (mode === "slow" ? { kind: "slow", delayMs: 2_000 } : ({ kind: mode } as StandinMode)) : mode;

export async function startTokenStandin(options: StandinOptions = {}): Promise<TokenStandin> {
  const limit = options.limit ?? 30;
  const windowMs = options.windowMs ?? 60_000;
  // An extra spec for a mint already listed refines it (e.g. the local cluster's price) rather than replacing its figures.
  const specs = new Map<string, TokenSpec>([...WELL_KNOWN, ...THIN_TOKENS].map((s) => [s.mint, s]));
  for (const extra of options.extraTokens ?? []) {
    const merged = { ...specs.get(extra.mint), ...extra };
    specs.set(extra.mint, merged.icon === undefined ? { ...merged, icon: localIconPath(extra.mint) } : merged);
  }
  const byMint = new Map<string, JupiterToken>([...specs.values()].map((s) => [s.mint, jupiterToken(s)]));
  const trendingMints =
    options.trending ??
    [...new Set([...WELL_KNOWN, ...(options.extraTokens ?? []).filter((t) => t.trending)].map((s) => s.mint))]
      .map((mint) => byMint.get(mint)!)
      .sort((a, b) => b.organicScore - a.organicScore)
      .map((t) => t.id);

  let mode: StandinMode = options.mode ?? { kind: "ok" };
  let accepted: number[] = []; // request times inside the current window, for the limit
  let received: number[] = []; // every request time, for maxInWindow
  let counters = { requests: 0, search: 0, trending: 0, overLimit: 0, rateLimited: 0, failed: 0 };
  let log: StandinRequest[] = [];

  const search = (query: string): JupiterToken[] | undefined => {
    const parts = query.split(",").map((p) => p.trim()).filter(Boolean);
    if (parts.length > MAX_QUERY_MINTS) return undefined;
    const out: JupiterToken[] = [];
    for (const part of parts) {
      const exact = byMint.get(part);
      if (exact) out.push(exact);
      else if (part.length < 32) {
        // Like upstream, a short query also matches symbols and names.
        const q = part.toLowerCase();
        for (const t of byMint.values()) if (t.symbol.toLowerCase() === q || t.name.toLowerCase().includes(q)) out.push(t);
      }
    }
    return [...new Map(out.map((t) => [t.id, t])).values()];
  };

  const ranked = (category: string, limitParam: number): JupiterToken[] => {
    const list = trendingMints.map((m) => byMint.get(m)).filter((t): t is JupiterToken => t !== undefined);
    if (category === "toptraded") {
      const volume = (t: JupiterToken) => (t.stats24h?.buyVolume ?? 0) + (t.stats24h?.sellVolume ?? 0);
      list.sort((a, b) => volume(b) - volume(a));
    } else if (category === "toptrending") {
      list.sort((a, b) => (b.stats24h?.priceChange ?? 0) - (a.stats24h?.priceChange ?? 0));
    }
    return list.slice(0, limitParam);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://standin");
    if (url.pathname.startsWith("/_admin/")) return admin(req, res, url.pathname);
    // Icons are static files, not API calls: never limited, failed or counted.
    if (url.pathname.startsWith(ICON_PATH_PREFIX)) return icon(res, url.pathname);

    const now = Date.now();
    counters.requests++;
    received.push(now);
    const apiKeyHeader = req.headers["x-api-key"];
    const apiKey = typeof apiKeyHeader === "string" ? apiKeyHeader : undefined;
    const entry: StandinRequest = { at: now, path: url.pathname + url.search, status: 0, apiKey };
    if (log.length < LOG_CAP) log.push(entry);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      send(res, status, body, headers);
    };

    if (apiKey === "" || (options.apiKey !== undefined && apiKey !== options.apiKey)) {
      return reply(401, { error: "Invalid API key" });
    }

    // The stand-in's own limit, a 60 s sliding window like Jupiter's: every request counts, refused ones too.
    accepted = accepted.filter((t) => now - t < windowMs);
    accepted.push(now);
    if (accepted.length > limit) {
      counters.overLimit++;
      const resetAt = accepted[accepted.length - limit - 1]! + windowMs;
      return reply(429, { error: "Rate limit exceeded" }, {
        "retry-after": String(Math.max(1, Math.ceil((resetAt - now) / 1000))),
        "x-ratelimit-limit": String(limit),
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.ceil(resetAt / 1000)),
      });
    }
    const limitHeaders = { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(limit - accepted.length) };

    if (mode.kind === "rate-limit") {
      counters.rateLimited++;
      const seconds = mode.retryAfterSeconds ?? 10;
      return reply(429, { error: "Rate limit exceeded" }, {
        "retry-after": String(seconds),
        "x-ratelimit-limit": String(limit),
        "x-ratelimit-remaining": "0",
        // Whole epoch seconds, not past retry-after: the two headers agree, as a gateway's would.
        "x-ratelimit-reset": String(Math.floor(now / 1000 + seconds)),
      });
    }
    if (mode.kind === "fail") {
      counters.failed++;
      return reply(mode.status ?? 503, { error: "Service Unavailable" });
    }
    if (mode.kind === "slow") await sleep(mode.delayMs);
    const malformed = mode.kind === "malformed";

    const parts = url.pathname.split("/").filter(Boolean); // tokens, v2, ...
    if (parts[0] !== "tokens" || parts[1] !== "v2") return reply(404, { error: "Not Found" });

    if (parts[2] === "search" && parts.length === 3) {
      counters.search++;
      const query = url.searchParams.get("query") ?? "";
      entry.mints = query.split(",").filter(Boolean).length;
      const found = search(query);
      if (!found) return reply(400, { error: `query accepts at most ${MAX_QUERY_MINTS} mints` });
      return reply(200, malformed ? { tokens: found.map((t) => ({ mint: t.id })) } : found, limitHeaders);
    }
    if (parts.length === 4 && CATEGORIES.has(parts[2]!) && INTERVALS.has(parts[3]!)) {
      counters.trending++;
      const n = Math.min(Math.max(1, Number(url.searchParams.get("limit") ?? 50) || 50), 100);
      const list = ranked(parts[2]!, n);
      return reply(200, malformed ? list.map((t) => ({ ...t, decimals: "six" })) : list, limitHeaders);
    }
    if (parts[2] === "tag" && parts.length === 3) {
      const tag = url.searchParams.get("query") ?? "";
      return reply(200, [...byMint.values()].filter((t) => t.tags?.includes(tag)), limitHeaders);
    }
    return reply(404, { error: "Not Found" });
  }

  function icon(res: ServerResponse, path: string): void {
    const mint = path.slice(ICON_PATH_PREFIX.length).replace(/\.svg$/, "");
    const spec = specs.get(mint);
    if (!spec || !path.endsWith(".svg")) return send(res, 404, { error: "Not Found" });
    const svg = iconSvg(mint, spec.symbol);
    res.writeHead(200, {
      "content-type": "image/svg+xml",
      "content-length": Buffer.byteLength(svg),
      "cache-control": "public, max-age=86400",
      "access-control-allow-origin": "*",
    });
    res.end(svg);
  }

  async function admin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === "/_admin/stats" && req.method === "GET") return send(res, 200, stats());
    if (path === "/_admin/reset" && req.method === "POST") {
      reset();
      return send(res, 200, { ok: true });
    }
    if (path === "/_admin/mode" && req.method === "POST") {
      try {
        setMode(JSON.parse(await readBody(req)) as StandinMode);
        return send(res, 200, { mode });
      } catch {
        return send(res, 400, { error: "body must be a mode, e.g. {\"kind\":\"fail\"}" });
      }
    }
    return send(res, 404, { error: "Not Found" });
  }

  function stats(): StandinStats {
    return { ...counters, maxInWindow: maxInWindow(received, windowMs), limit, windowMs, log: [...log] };
  }
  function reset(): void {
    accepted = [];
    received = [];
    log = [];
    counters = { requests: 0, search: 0, trending: 0, overLimit: 0, rateLimited: 0, failed: 0 };
  }
  function setMode(next: StandinMode | StandinMode["kind"]): void {
    const normalized = normalizeMode(next);
    if (!["ok", "rate-limit", "fail", "slow", "malformed"].includes(normalized.kind)) throw new Error(`unknown mode ${normalized.kind}`);
    mode = normalized;
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1";
  // The icons' paths become URLs on this server, now that its port is known.
  for (const token of byMint.values()) if (token.icon?.startsWith("/")) token.icon = `http://${host}:${port}${token.icon}`;

  return {
    url: `http://${host}:${port}`,
    port,
    setMode,
    stats,
    reset,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
