import { InvalidCursorError } from "../../lib/db/reads/cursor";
import { isDatabaseUnreachable } from "../../lib/resilience";
import { ApiError, invalidParameter, type ErrorBody } from "./errors";
import { rateLimitHeaders, type RateDecision, type RateLimiter } from "./rate-limit";
import { processRevalidationMemo } from "./revalidation";
import { ALLOW, bodyText, CACHE, CORS_ORIGIN, CORS_PREFLIGHT_HEADERS, ifNoneMatchHits, jsonResponse, strongEtag, type JsonBody } from "./response";

export interface Reply {
  body: JsonBody;
  cache: string;
  status?: number;
}

export interface RouteDeps {
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
   * running the route (./revalidation.ts).
   */
  feedChanges?(): number | null;
}

/** What the budget reads of a request: its headers (a fetch Request's, or the launcher's node:http ones). */
export interface RequestHeaders {
  get(name: string): string | null;
}

type Params = Record<string, string | string[] | undefined>;
type RouteContext = { params: Promise<Params> };
/** A handler answers a JSON reply, or a response of its own (the event stream). */
type Handler = (request: Request, url: URL, params: Params) => Promise<Reply | Response>;

/** The 405 for any other method, from a route or from the web launcher before routing. */
export const methodNotAllowed = (method: string) =>
  new ApiError("method_not_allowed", `${method} is not allowed: this API is read-only (GET)`, undefined, { allow: ALLOW });

/** How a route family writes the error body, when a standard it follows asks for more than ours (the DEXTools adapter's `message`). */
export type ErrorShape = (body: ErrorBody) => unknown;

export function errorResponse(error: ApiError, extra?: Record<string, string>, shape?: ErrorShape): Response {
  const value = shape ? shape(error.body) : error.body;
  return jsonResponse({ value }, error.status, CACHE.none, extra ? { ...extra, ...error.headers } : error.headers);
}

/**
 * A successful answer with its strong ETag; 304 without a body when the
 * client's If-None-Match already names it (HEAD alike). The 304 repeats the
 * validator and the cache policy (RFC 9110 15.4.5), so caches refresh theirs.
 */
export function okResponse(request: Request, reply: Reply, extra: Record<string, string> | undefined): Response {
  const text = bodyText(reply.body);
  const etag = strongEtag(text);
  if (ifNoneMatchHits(request.headers.get("if-none-match"), etag)) return notModified(etag, reply.cache, extra);
  return jsonResponse({ text }, reply.status ?? 200, reply.cache, extra ? { ...extra, etag } : { etag });
}

function notModified(etag: string, cache: string, extra: Record<string, string> | undefined): Response {
  return new Response(null, { status: 304, headers: { "cache-control": cache, ...CORS_ORIGIN, ...extra, etag } });
}

/**
 * The socket's address, set by the web launcher (web/launcher.ts) on
 * every request, overwriting any copy the client sent.
 */
export const CLIENT_ADDRESS_HEADER = "x-offer-book-client";

/** The last x-forwarded-for hop: the one the nearest proxy appended. */
function lastForwardedHop(request: { headers: RequestHeaders }): string | undefined {
  const forwarded = request.headers.get("x-forwarded-for");
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
  if (trustProxy) return lastForwardedHop(request) ?? request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? lastForwardedHop(request) ?? "unknown";
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

const PREFLIGHT_HEADERS = { ...CORS_PREFLIGHT_HEADERS, allow: ALLOW };

const refuseMethod: Handler = async (request) => {
  throw methodNotAllowed(request.method);
};

/**
 * Wraps a read handler into the methods of a /v1 route: GET and HEAD run it,
 * OPTIONS answers CORS preflight, everything else is 405. Every failure leaves
 * as the one JSON error shape; nothing below a route builds an error response.
 * Also made here: the answer to a revalidation the process's memo vouches
 * for, which the web launcher gives before Next routes the request.
 */
export function createRoute(deps: RouteDeps) {
  const memo = processRevalidationMemo();

  /** `pattern` names the route in metrics (e.g. "/v1/offers/[pda]"): bounded, unlike raw paths. */
  function route(pattern: string, handler: Handler, options: { errorShape?: ErrorShape } = {}) {
    const observe = deps.observe;
    const answer = answerWith(pattern, handler, options.errorShape);
    const GET = async (request: Request, context: RouteContext): Promise<Response> => {
      if (!observe) return answer(request, context);
      const started = performance.now();
      const response = await answer(request, context);
      observe(pattern, response.status, (performance.now() - started) / 1000);
      return response;
    };
    const OPTIONS = async (): Promise<Response> =>
      new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    // Other methods spend the budget too (and so carry its headers): they are requests all the same.
    const notAllowed = answerWith(pattern, refuseMethod, options.errorShape);
    return { GET, HEAD: GET, OPTIONS, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
  }

  /** Takes one request off the client's budget: the headers saying what is left, and the 429 when it is spent. */
  async function spend(headers: RequestHeaders, url: string, shape?: ErrorShape): Promise<{ budget?: Record<string, string>; refused?: Response }> {
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
    return { budget, refused: errorResponse(refusal, budget, shape) };
  }

  function answerWith(pattern: string, handler: Handler, shape?: ErrorShape) {
    return async (request: Request, context: RouteContext): Promise<Response> => {
      let budget: Record<string, string> | undefined;
      try {
        const spent = await spend(request.headers, request.url, shape);
        if (spent.refused) return spent.refused;
        budget = spent.budget;
        const url = new URL(request.url);
        const key = url.pathname + url.search;
        // Read before the route runs: a change announced while it runs makes the answer unfit to vouch for.
        const changes = deps.feedChanges?.() ?? null;
        const ifNoneMatch = request.headers.get("if-none-match");
        if (changes !== null && ifNoneMatch !== null) {
          const unchanged = memo.lookup(key, ifNoneMatch, changes);
          if (unchanged) return notModified(unchanged.etag, unchanged.cache, budget);
        }
        const params = await context.params;
        const reply = await retryOnceIfUnavailable(() => handler(request, url, params));
        if (reply instanceof Response) {
          // The stream spent the budget as any read does, and says so.
          for (const [name, value] of Object.entries(budget ?? {})) reply.headers.set(name, value);
          return reply;
        }
        const response = okResponse(request, reply, budget);
        if (changes !== null && (reply.status ?? 200) === 200) {
          memo.remember(key, { etag: response.headers.get("etag")!, cache: reply.cache, route: pattern }, changes);
        }
        return response;
      } catch (error) {
        if (error instanceof ApiError) return errorResponse(error, budget, shape);
        if (error instanceof InvalidCursorError) return errorResponse(invalidParameter("cursor", error.message), budget, shape);
        if (isDatabaseUnreachable(error)) {
          deps.log(error, request.url);
          return errorResponse(new ApiError("unavailable", "the database is unreachable; try again shortly", undefined, { "retry-after": "5" }), budget, shape);
        }
        deps.log(error, request.url);
        return errorResponse(new ApiError("internal_error", "internal error"), budget, shape);
      }
    };
  }

  /**
   * The 304 for a GET or HEAD of `target` (path and query) whose If-None-Match
   * the memo vouches for, with the budget spent and the request observed as
   * the route would; undefined, with nothing spent, when the route must
   * answer. A 304 made here skips the framework's routing altogether.
   */
  async function revalidateBeforeRouting(method: string, target: string, headers: RequestHeaders): Promise<Response | undefined> {
    if (method !== "GET" && method !== "HEAD") return undefined;
    const ifNoneMatch = headers.get("if-none-match");
    if (ifNoneMatch === null) return undefined;
    const changes = deps.feedChanges?.() ?? null;
    if (changes === null) return undefined;
    const url = new URL(target, "http://localhost");
    const unchanged = memo.lookup(url.pathname + url.search, ifNoneMatch, changes);
    if (!unchanged) return undefined;
    const started = performance.now();
    const spent = await spend(headers, target);
    const response = spent.refused ?? notModified(unchanged.etag, unchanged.cache, spent.budget);
    deps.observe?.(unchanged.route, response.status, (performance.now() - started) / 1000);
    return response;
  }

  /** One request off the client's budget for an endpoint outside the /v1 routes (/mcp): its headers, or the 429 to answer. */
  const spendBudget = (headers: RequestHeaders, url: string) => spend(headers, url);

  return { route, revalidateBeforeRouting, spendBudget };
}
