import type { z } from "zod";
import type { ErrorBody } from "./errors";
import type { CachePolicy, JsonBody } from "./response";

/**
 * One /v1 endpoint as the route table (web/api/routes.ts) declares it, and
 * the request it answers, whichever server carried it: Next's route handlers
 * (app/v1/**, under `next start`) or the web launcher on node:http. Nothing
 * here knows either: web/http/api.ts answers, web/http/next-adapter.ts and
 * web/http/node-writer.ts carry the answer out.
 */

/** What a handler reads of a request's headers (a fetch Headers, or the launcher's view of node:http's). */
export interface RequestHeaders {
  get(name: string): string | null;
}

export interface ApiRequest {
  method: string;
  /** The request's URL: path and query (the origin is only the Host header's, see requestOrigin). */
  url: URL;
  headers: RequestHeaders;
  /** The path's `[name]` segments, percent-decoded. */
  params: Record<string, string>;
  /** Aborted when the client goes away (the stream stops on it). */
  signal: AbortSignal;
}

/**
 * An answer that is not JSON: the event stream's or a CSV export's, with its
 * own headers (null body for HEAD). Its chunks are bytes or text: node:http
 * encodes text straight into the socket's buffer, where encoding it here
 * first would allocate each chunk twice (the Next adapter encodes it).
 */
export interface StreamReply {
  stream: ReadableStream<Uint8Array | string> | null;
  headers: Record<string, string>;
}

export type Reply = JsonBody | StreamReply;

/**
 * How an endpoint family writes the error body when a standard it follows asks
 * for more than ours (the DEXTools adapter's `message`): web/http/api.ts's one
 * error writer applies it, so both servers write the same.
 */
export type ErrorShape = (body: ErrorBody) => unknown;

type ParamSchemas = Record<string, z.ZodType>;
type ParsedParams<P extends ParamSchemas> = { [K in keyof P]: z.output<P[K]> };

export interface EndpointInput<Q, P> {
  /** The query, parsed by the endpoint's `query` schema (undefined without one). */
  query: Q;
  /** The path's parameters, parsed by the endpoint's `params` schemas. */
  params: P;
  request: ApiRequest;
}

export interface Endpoint<Q = unknown, P = Record<string, unknown>> {
  /** The path as Next's folders spell it: `/v1/offers/[pda]` (`[name]` is one segment, `[...name]` the rest). */
  path: string;
  /** The query parameters read (others are ignored); a failure is the 400 naming the parameter. */
  query?: z.ZodObject;
  /** A schema per `[name]` segment of the path. */
  params?: ParamSchemas;
  /** Cache-Control of a successful answer. */
  cache: CachePolicy;
  /**
   * The client's request budget (RATE_LIMIT_RPM) a call spends: "request"
   * (one, the default, the stream included: opening it is a request like any
   * other) or "none" (never refused with a 429).
   */
  budget?: "request" | "none";
  /** The error body's shape, when not ours (every 4xx and 5xx of the endpoint, 405 and 429 included). */
  errorShape?: ErrorShape;
  /** Parses what the schemas cannot say (cross-parameter rules), calls lib/, and returns the JSON (PostgreSQL's text when it built it). */
  answer(input: EndpointInput<Q, P>): Promise<Reply>;
}

/** Declares an endpoint, its query and params typed from their schemas. */
export function endpoint<QS extends z.ZodObject | undefined = undefined, PS extends ParamSchemas = Record<never, z.ZodType>>(definition: {
  path: string;
  query?: QS;
  params?: PS;
  cache: CachePolicy;
  budget?: "request" | "none";
  errorShape?: ErrorShape;
  answer(input: EndpointInput<QS extends z.ZodObject ? z.output<QS> : undefined, ParsedParams<PS>>): Promise<Reply>;
}): Endpoint {
  return definition as unknown as Endpoint;
}

interface Compiled {
  segments: string[];
  /** Index of a `[...rest]` segment, or -1. */
  rest: number;
  endpoint: Endpoint;
}

/** A path matcher over the table: the exact-segment patterns first, dynamic ones after, as Next ranks them. */
export function endpointMatcher(table: readonly Endpoint[]) {
  const compiled: Compiled[] = table.map((endpoint) => {
    const segments = endpoint.path.split("/").slice(1);
    return { segments, rest: segments.findIndex((s) => s.startsWith("[...")), endpoint };
  });
  const rank = (c: Compiled) => (c.rest >= 0 ? 2 : c.segments.some((s) => s.startsWith("[")) ? 1 : 0);
  compiled.sort((a, b) => rank(a) - rank(b));
  const byPath = new Map(table.map((e) => [e.path, e]));

  /** The endpoint serving a (canonical, decodable) path, and its raw segment values, or undefined. */
  function match(pathname: string): { endpoint: Endpoint; params: Record<string, string> } | undefined {
    const parts = pathname.split("/").slice(1);
    for (const c of compiled) {
      if (c.rest < 0 && parts.length !== c.segments.length) continue;
      if (c.rest >= 0 && parts.length <= c.rest) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < c.segments.length && ok; i++) {
        const segment = c.segments[i]!;
        if (i === c.rest) params[segment.slice(4, -1)] = parts.slice(i).map(decodeURIComponent).join("/");
        else if (segment.startsWith("[")) params[segment.slice(1, -1)] = decodeURIComponent(parts[i]!);
        else ok = segment === parts[i];
      }
      if (ok) return { endpoint: c.endpoint, params };
    }
    return undefined;
  }

  /** The endpoint declared at exactly this path (for Next's adapters); throws if the table has none. */
  function at(path: string): Endpoint {
    const endpoint = byPath.get(path);
    if (!endpoint) throw new Error(`no /v1 endpoint ${path} in the route table (web/api/routes.ts)`);
    return endpoint;
  }

  return { match, at };
}
