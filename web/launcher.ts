/**
 * The web process: Next.js (its documented custom-server API) behind
 * node:http, for what `next start` cannot do:
 *
 * - The request budget keys on the socket's address. `next start` only fills
 *   x-forwarded-for from the socket when the client sent none, so a client
 *   could name itself; here every request carries the socket's address in a
 *   private header, overwriting any copy the client sent (web/http/route.ts).
 * - Methods Next's route modules do not know (TRACE answered 500 text/plain,
 *   PROPFIND an empty 400) get the API's JSON 405 under /v1, as POST does.
 * - A path that is not valid percent-encoding (`/v1/offers/%ZZ`) made Next
 *   answer 500: it is a 400 here (JSON under /v1).
 * - A revalidation (If-None-Match) of an answer that cannot have changed is
 *   answered 304 here, from the memo the routes keep (web/http/revalidation.ts),
 *   with the budget spent and the request counted as the route would: a map
 *   look-up instead of a pass through Next's routing, which costs the most
 *   of a 304 (some 750 µs of CPU on Node 20 against 100-180 µs here).
 *
 * - The request target: `*`, absolute-form, and /v1 paths with doubled or
 *   trailing slashes are judged here (web/http/request-target.ts), and a
 *   request Node's parser refuses (an over-long target or header block) is
 *   answered in the API's JSON shape with CORS (web/http/client-error.ts).
 * - A gzip body gets its own ETag (web/http/encoding-etag.ts).
 * - What Next prints to the console becomes one log line per kind per
 *   interval (platform/console-gate.ts): a client's bytes never print a stack.
 *
 * The rest is a property write and a few string comparisons per request; the
 * path is decoded only when it holds a `%`, the memo read only for a /v1
 * request that carries If-None-Match.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { env } from "../platform/env";
import { answerClientError } from "./http/client-error";
import { tagPerEncoding } from "./http/encoding-etag";
import { ApiError } from "./http/errors";
import { isApiPath, judgeTarget } from "./http/request-target";
import { ALLOW, CORS_ORIGIN, CORS_PREFLIGHT_HEADERS } from "./http/response";
import { allowBackForwardCache, isPageDocumentRequest } from "./http/page-cache";
import { CLIENT_ADDRESS_HEADER, errorResponse, methodNotAllowed, type RequestHeaders } from "./http/route";
import { gateConsole } from "../platform/console-gate";
import { requestObserver } from "../platform/metrics";
import { exitWithOneLine, StartupError } from "../platform/startup-error";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The registry is on globalThis, shared with Next's bundles in this process.
const observe = requestObserver();
/** The route label of what the launcher answers itself, before Next routes it. */
const REFUSED_BEFORE_ROUTING = "(before routing)";

/** The API's error answer (web/http), given before Next routes the request. */
function refuse(res: ServerResponse, error: ApiError): void {
  observe(REFUSED_BEFORE_ROUTING, error.status, 0);
  writeResponse(res, errorResponse(error), false).catch(() => res.destroy());
}

function headersOf(req: IncomingMessage): RequestHeaders {
  return {
    get: (name) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** A fetch Response (the 304, or the 429 when the budget is spent) written to node:http. */
async function writeResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(head || response.status === 304 ? undefined : await response.text());
}

/** The 308 to a /v1 path's canonical form: same origin (a relative Location), a JSON body, CORS. */
function redirectToCanonical(res: ServerResponse, location: string): void {
  observe(REFUSED_BEFORE_ROUTING, 308, 0);
  const body = JSON.stringify({ error: `this path is not canonical: the resource is at ${location}`, code: "moved_permanently", location });
  res.writeHead(308, { location, "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=300", ...CORS_ORIGIN });
  res.end(body);
}

/** False for a path Next cannot percent-decode. */
function decodablePath(url: string): boolean {
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  let config;
  try {
    config = env();
  } catch (error) {
    exitWithOneLine("web", error); // platform/env.ts's list of bad variables, told on one line
  }
  // After env() has been checked: the runtime makes its logger from it as it loads.
  const { logger, revalidateBeforeRouting } = await import("./services");
  // Next prints some refusals of a client's request with a stack: one line per kind per minute instead.
  gateConsole(logger);
  const port = config.PORT;
  // HOST, not HOSTNAME: shells set HOSTNAME to the machine's name.
  const host = process.env.HOST || undefined;

  // Next's handler, once prepared; requests that arrive earlier wait for it.
  const nextServer: { handle?: (req: IncomingMessage, res: ServerResponse) => Promise<void> } = {};
  let ready!: () => void;
  const prepared = new Promise<void>((resolve) => (ready = resolve));

  const server = createServer((req, res) => {
    req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? "unknown";
    const method = req.method ?? "GET";
    const target = judgeTarget(method, req.url ?? "/");
    if (target.kind === "server-options") {
      observe(REFUSED_BEFORE_ROUTING, 204, 0);
      return void res.writeHead(204, { ...CORS_PREFLIGHT_HEADERS, allow: ALLOW }).end();
    }
    if (target.kind === "bad") return refuse(res, new ApiError("invalid_parameter", target.message));
    const url = target.kind === "redirect" ? target.location : (req.url = target.url);
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS" && isApiPath(url)) {
      return refuse(res, methodNotAllowed(method));
    }
    if (target.kind === "redirect") return redirectToCanonical(res, target.location);
    if (!decodablePath(url)) {
      if (isApiPath(url)) return refuse(res, new ApiError("invalid_parameter", "the path is not valid percent-encoding"));
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Bad Request: the path is not valid percent-encoding\n");
      return;
    }
    if (isApiPath(url)) tagPerEncoding(res, req.headers["if-none-match"]);
    const handOver = () => {
      if (!isApiPath(url) && isPageDocumentRequest(req)) allowBackForwardCache(res);
      if (nextServer.handle) return void nextServer.handle(req, res);
      void prepared.then(() => nextServer.handle!(req, res));
    };
    if (req.headers["if-none-match"] === undefined || !isApiPath(url)) return handOver();
    revalidateBeforeRouting(method, url, headersOf(req))
      .then(
        (early) => (early ? writeResponse(res, early, method === "HEAD") : handOver()),
        handOver, // the route answers, and reports, whatever failed here
      )
      .catch(() => res.destroy()); // the client went away mid-answer
  });

  // Node's parser refused the request: answered in the API's shape, never logged (the bytes are the client's).
  server.on("clientError", answerClientError);

  // Take the port first, so a taken one fails in a moment and in one line.
  await new Promise<void>((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") {
        exitWithOneLine("web", new StartupError(`port ${port} is already in use`, "stop what is listening there or set PORT to a free port"));
      }
      exitWithOneLine("web", error);
    });
    server.listen(port, host, resolve);
  });

  const app = next({ dev: false, dir: ROOT, hostname: host ?? "localhost", port, httpServer: server });
  try {
    await app.prepare();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || /production build/i.test(String(error))) {
      exitWithOneLine("web", new StartupError("there is no production build in .next", "run npm run build first"));
    }
    exitWithOneLine("web", error);
  }
  nextServer.handle = app.getRequestHandler();
  ready();
  process.stdout.write(`web: serving on http://${host ?? "localhost"}:${port}\n`);

  const shutdown = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    // A keep-alive socket in use would hold close() open; the answers in flight are short.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}

await main();
