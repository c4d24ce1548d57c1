import { InvalidCursorError } from "../../lib/db/reads/cursor";
import { isDatabaseUnreachable, isDeadlineExceeded, withDeadline } from "../../lib/resilience";
import type { ApiRequest, Endpoint, ErrorShape, RequestHeaders, StreamReply } from "./endpoint";
import { BodyTagMemo } from "./body-memo";
import { ApiError, invalidParameter } from "./errors";
import { parsePathParam, parseQuery } from "./params";
import { rateLimitHeaders, type RateDecision, type RateLimiter } from "./rate-limit";
import { processRevalidationMemo } from "./revalidation";
import { ALLOW, CACHE, CORS_ORIGIN, CORS_PREFLIGHT_HEADERS, ifNoneMatchHits, JSON_TYPE, tagBody } from "./response";

/**
 * The one place a /v1 request is answered, whichever server carried it
 * (Next's route handlers or the web launcher): the budget, the revalidation
 * memo, the endpoint's schemas and handler, the ETag, the error shape and the
 * header policy. It returns an Answer, plain data that
 * web/http/next-adapter.ts turns into a fetch Response and
 * web/http/node-writer.ts writes to node:http.
 */

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /**
   * The JSON (an answer's strong ETag, the SHA-1 of its UTF-8, in
   * headers.etag), the event stream or a CSV export, or no body.
   * JSON under 8 K characters goes as text, which node:http sends in one
   * write with the head; a larger body as its UTF-8 bytes, a second chunk of
   * the same write, which the body memo keeps per URL (./body-memo.ts).
   */
  body: string | Buffer | ReadableStream<Uint8Array | string> | null;
}

export interface ApiDeps {
  limiter(): RateLimiter;
  trustProxy(): boolean;
  /** A failure worth a log line, with the request's URL (path and query). */
  log(error: unknown, url: string): void;
  /** Called once per answered request: the route's pattern, its status and the time taken in seconds. */
  observe?(route: string, status: number, seconds: number): void;
  /** Called for each request refused by the budget. */
  rateLimited?(): void;
  /**
   * How many changes the live feed has announced, or null while it is not
   * listening: with it, a revalidation of an unchanged answer is a 304 without
   * running the endpoint (./revalidation.ts).
   */
  feedChanges?(): number | null;
  /** How long an endpoint may take to answer before the request gets a 503 instead; ANSWER_DEADLINE_MS by default. */
  answerDeadlineMs?: number;
}

/**
 * Past the longest a read takes while the database answers at all: a connect
 * timeout (3 s) and a statement timeout (10 s), retried once after a fast
 * connection failure (a CSV export: its first rows, the rest streams after).
 * Beyond it the database is lost in a way no timeout of its own catches (a
 * server gone from the network without a reset), and the client is better
 * told to retry than kept waiting.
 */
export const ANSWER_DEADLINE_MS = 15_000;

/**
 * The socket's address, set by the web launcher (web/launcher.ts) on
 * every request, overwriting any copy the client sent.
 */
export const CLIENT_ADDRESS_HEADER = "x-offer-book-client";

/** The last x-forwarded-for hop: the one the nearest proxy appended. */
function lastForwardedHop(headers: RequestHeaders): string | undefined {
  const forwarded = headers.get("x-forwarded-for");
  if (!forwarded) return undefined;
  const comma = forwarded.lastIndexOf(",");
  return (comma < 0 ? forwarded : forwarded.slice(comma + 1)).trim() || undefined;
}

/**
 * The client's address for its request budget. Behind a trusted proxy, the
 * hop that proxy appended (the last one: earlier hops are the client's own
 * word); otherwise the socket's address, whatever headers the client sent.
 * Without the launcher's header (a bare `next start`), Next fills
 * x-forwarded-for from the socket only when the client sent none, so the last
 * hop is the best left; `npm run web` always runs the launcher.
 */
export function clientKey(request: { headers: RequestHeaders }, trustProxy: boolean): string {
  const { headers } = request;
  if (trustProxy) return lastForwardedHop(headers) ?? headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
  return headers.get(CLIENT_ADDRESS_HEADER) ?? lastForwardedHop(headers) ?? "unknown";
}

/** The 405 for any other method than GET, HEAD and OPTIONS. */
export const methodNotAllowed = (method: string) =>
  new ApiError("method_not_allowed", `${method} is not allowed: this API is read-only (GET)`, undefined, { allow: ALLOW });

/**
 * The one error writer: the documented JSON shape (or the endpoint's
 * `errorShape` of it), never stored, with CORS and whatever the error and the
 * budget add.
 */
export function errorAnswer(error: ApiError, budget?: Record<string, string>, shape?: ErrorShape): Answer {
  const headers = { "content-type": JSON_TYPE, "cache-control": CACHE.none, ...CORS_ORIGIN, ...budget, ...error.headers };
  return { status: error.status, headers, body: JSON.stringify(shape ? shape(error.body) : error.body) };
}

/** The CORS preflight answer: free of the budget (a browser sends it on its own). */
export const preflightAnswer = (): Answer => ({ status: 204, headers: { ...CORS_PREFLIGHT_HEADERS, allow: ALLOW }, body: null });

/** The 304 repeats the validator and the cache policy (RFC 9110 15.4.5), so caches refresh theirs. */
function notModified(etag: string, cache: string, budget: Record<string, string> | undefined): Answer {
  return { status: 304, headers: { "cache-control": cache, ...CORS_ORIGIN, ...budget, etag }, body: null };
}

/**
 * After PostgreSQL restarts, each pooled connection still open to the old
 * server fails the first query that uses it, possibly long after the server
 * is back. Every handler only reads, so one more try (on a fresh connection)
 * answers instead of a 503; in a real outage the second try fails as fast.
 */
async function retryOnceIfUnavailable<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isDatabaseUnreachable(error)) throw error;
    return run();
  }
}

const isStream = (reply: object): reply is StreamReply => "stream" in reply;

export function createApi(deps: ApiDeps) {
  const memo = processRevalidationMemo();
  const bodies = new BodyTagMemo();

  /**
   * Takes one request off the client's budget: the headers saying what is
   * left, and the 429 when it is spent. Exported for the one caller outside
   * the route table that spends it too (/mcp, web/agents).
   */
  async function spend(headers: RequestHeaders, url: string, shape?: ErrorShape): Promise<{ budget?: Record<string, string>; refused?: Answer }> {
    let decision: RateDecision | undefined;
    try {
      decision = await deps.limiter().take(clientKey({ headers }, deps.trustProxy()));
    } catch (error) {
      // The budget is a soft guard: if its store (Redis) is down, serve rather than refuse.
      deps.log(error, url);
    }
    const budget = decision && rateLimitHeaders(decision);
    if (!decision || decision.allowed) return { budget };
    deps.rateLimited?.();
    const refusal = new ApiError("rate_limited", "too many requests: slow down and retry after the delay given", undefined, {
      "retry-after": String(decision.reset),
    });
    return { budget, refused: errorAnswer(refusal, budget, shape) };
  }

  function parseParams(endpoint: Endpoint, raw: Record<string, string>): Record<string, unknown> {
    if (!endpoint.params) return raw;
    const parsed: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(endpoint.params)) parsed[name] = parsePathParam(name, raw[name] ?? "", schema);
    return parsed;
  }

  /** A GET or HEAD: the budget, the memo, the handler, the ETag; every failure as the one error shape. */
  async function read(endpoint: Endpoint, request: ApiRequest): Promise<Answer> {
    let budget: Record<string, string> | undefined;
    const target = request.url.pathname + request.url.search;
    const shape = endpoint.errorShape;
    try {
      if (endpoint.budget !== "none") {
        const spent = await spend(request.headers, target, shape);
        if (spent.refused) return spent.refused;
        budget = spent.budget;
      }
      // Read before the endpoint runs: a change announced while it runs makes the answer unfit to vouch for.
      const changes = deps.feedChanges?.() ?? null;
      const ifNoneMatch = request.headers.get("if-none-match");
      if (changes !== null && ifNoneMatch !== null) {
        const unchanged = memo.lookup(target, ifNoneMatch, changes);
        if (unchanged) return notModified(unchanged.etag, unchanged.cache, budget);
      }
      const params = parseParams(endpoint, request.params);
      const query = endpoint.query ? parseQuery(request.url, endpoint.query) : undefined;
      const reply = await withDeadline(
        retryOnceIfUnavailable(() => endpoint.answer({ query, params, request })),
        deps.answerDeadlineMs ?? ANSWER_DEADLINE_MS,
        `${endpoint.path}'s answer`,
        // An export that starts after its request was answered: nobody reads it, so its cursor closes.
        (late) => void (isStream(late) && late.stream?.cancel().catch(() => {})),
      );
      // The stream spent the budget as any read does, and says so.
      if (isStream(reply)) return { status: 200, headers: { ...reply.headers, ...budget }, body: reply.stream };
      // Tagged once per body (a constant document once per process, an unchanged one once per URL): the writers derive each coding's tag from it.
      const { body, etag } = tagBody(reply, (text) => bodies.tag(target, text));
      if (changes !== null) memo.remember(target, { etag, cache: endpoint.cache, route: endpoint.path }, changes);
      if (ifNoneMatchHits(ifNoneMatch, etag)) return notModified(etag, endpoint.cache, budget);
      return { status: 200, headers: { "content-type": JSON_TYPE, "cache-control": endpoint.cache, ...CORS_ORIGIN, ...budget, etag }, body };
    } catch (error) {
      if (error instanceof ApiError) return errorAnswer(error, budget, shape);
      if (error instanceof InvalidCursorError) return errorAnswer(invalidParameter("cursor", error.message), budget, shape);
      const overdue = isDeadlineExceeded(error);
      if (overdue || isDatabaseUnreachable(error)) {
        deps.log(error, target);
        const why = overdue ? `did not answer within ${error.ms / 1000} s` : "is unreachable";
        return errorAnswer(new ApiError("unavailable", `the database ${why}; try again shortly`, undefined, { "retry-after": "5" }), budget, shape);
      }
      deps.log(error, target);
      return errorAnswer(new ApiError("internal_error", "internal error"), budget, shape);
    }
  }

  /**
   * Any method on an endpoint: GET and HEAD read it, OPTIONS answers CORS
   * preflight, everything else is 405 (free of the budget, as the web
   * launcher refuses it before routing).
   */
  async function serve(endpoint: Endpoint, request: ApiRequest): Promise<Answer> {
    const { method } = request;
    if (method === "OPTIONS") return preflightAnswer();
    if (method !== "GET" && method !== "HEAD") return errorAnswer(methodNotAllowed(method), undefined, endpoint.errorShape);
    if (!deps.observe) return read(endpoint, request);
    const started = performance.now();
    const answer = await read(endpoint, request);
    deps.observe(endpoint.path, answer.status, (performance.now() - started) / 1000);
    return answer;
  }

  return { serve, spend };
}
