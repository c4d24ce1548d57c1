/**
 * The web process: node:http in front of Next.js (its documented
 * custom-server API). Under /v1 it answers itself, from the route table
 * (web/api/routes.ts) through the same core as Next's route handlers
 * (web/http/api.ts), written straight to node:http (web/http/node-writer.ts):
 * no fetch Request or Response and no pass through Next's router, which cost
 * some 1.6 ms of CPU a request. Everything else (pages, /docs, assets,
 * /health, /metrics) is handed to Next. Also here, for what `next start`
 * cannot do:
 *
 * - The request budget keys on the socket's address. `next start` only fills
 *   x-forwarded-for from the socket when the client sent none, so a client
 *   could name itself; here every request carries the socket's address in a
 *   private header, overwriting any copy the client sent (web/http/api.ts).
 * - Any method but GET, HEAD and OPTIONS gets the API's JSON 405 under /v1
 *   (Next answered TRACE 500 text/plain, PROPFIND an empty 400).
 * - A path that is not valid percent-encoding (`/v1/offers/%ZZ`) made Next
 *   answer 500: it is a 400 here (JSON under /v1).
 * - The request target: `*`, absolute-form, and /v1 paths with doubled or
 *   trailing slashes are judged here (web/http/request-target.ts), and a
 *   request Node's parser refuses (an over-long target or header block) is
 *   answered in the API's JSON shape with CORS (web/http/client-error.ts).
 * - What Next prints to the console becomes one log line per kind per
 *   interval (platform/console-gate.ts): a client's bytes never print a stack.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { env } from "../platform/env";
import { startIdleMemoryRelease } from "../platform/idle-memory";
import { CLIENT_ADDRESS_HEADER, errorAnswer, methodNotAllowed, preflightAnswer, type Answer } from "./http/api";
import { answerClientError } from "./http/client-error";
import { ApiError } from "./http/errors";
import { apiRequestOf, writeAnswer, type WriterOptions } from "./http/node-writer";
import { isApiPath, judgeTarget } from "./http/request-target";
import { CORS_ORIGIN } from "./http/response";
import { allowBackForwardCache, isPageDocumentRequest } from "./http/page-cache";
import { gateConsole } from "../platform/console-gate";
import { requestObserver } from "../platform/metrics";
import { exitWithOneLine, StartupError } from "../platform/startup-error";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The registry is on globalThis, shared with Next's bundles in this process.
const observe = requestObserver();
/** The route label of what the launcher answers before matching a route. */
const REFUSED_BEFORE_ROUTING = "(before routing)";

/** An answer made before routing (the 405, a bad target), counted as such. */
function answerEarly(req: IncomingMessage, res: ServerResponse, answer: Answer, writer: WriterOptions): void {
  observe(REFUSED_BEFORE_ROUTING, answer.status, 0);
  writeAnswer(req, res, answer, writer).catch(() => res.destroy());
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

/** A /v1 request, answered from the route table without Next. */
type Api = { serve: typeof import("./services").serve; apiRoutes: typeof import("./api/routes").apiRoutes };

function serveApi(req: IncomingMessage, res: ServerResponse, target: string, { serve, apiRoutes }: Api, writer: WriterOptions): void {
  const url = new URL(target, "http://localhost");
  const { endpoint, params } = apiRoutes.match(url.pathname)!; // the table's catch-all answers any other /v1 path
  serve(endpoint, apiRequestOf(req, res, url, params))
    .then((answer) => writeAnswer(req, res, answer, writer))
    .catch(() => res.destroy()); // the client went away mid-answer
}

/** The error shape of the endpoint at a /v1 path (the DEXTools adapter's), for the refusals made before routing. */
function errorShapeAt(url: string, { apiRoutes }: Api) {
  if (!decodablePath(url)) return undefined;
  return apiRoutes.match(new URL(url, "http://localhost").pathname)?.endpoint.errorShape;
}

async function main(): Promise<void> {
  let config;
  try {
    config = env();
  } catch (error) {
    exitWithOneLine("web", error); // platform/env.ts's list of bad variables, told on one line
  }
  // After env() has been checked: the runtime makes its logger from it as it loads.
  // The route table too: it reads the services, whose logger is made from env() as they load.
  const api: Api = { serve: (await import("./services")).serve, apiRoutes: (await import("./api/routes")).apiRoutes };
  const writer: WriterOptions = { compress: config.COMPRESS };
  // Next prints some refusals of a client's request with a stack: one line per kind per minute instead.
  gateConsole((await import("./services")).logger);
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
    if (target.kind === "server-options") return answerEarly(req, res, preflightAnswer(), writer);
    if (target.kind === "bad") return answerEarly(req, res, errorAnswer(new ApiError("invalid_parameter", target.message)), writer);
    const url = target.kind === "redirect" ? target.location : (req.url = target.url);
    const isApi = isApiPath(url);
    if (isApi && method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
      return answerEarly(req, res, errorAnswer(methodNotAllowed(method), undefined, errorShapeAt(url, api)), writer);
    }
    if (target.kind === "redirect") return redirectToCanonical(res, target.location);
    if (!decodablePath(url)) {
      if (isApi) return answerEarly(req, res, errorAnswer(new ApiError("invalid_parameter", "the path is not valid percent-encoding")), writer);
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Bad Request: the path is not valid percent-encoding\n");
      return;
    }
    // Nothing is answered before Next is ready: a probe of /v1 says the whole process serves.
    if (isApi) return nextServer.handle ? serveApi(req, res, url, api, writer) : void prepared.then(() => serveApi(req, res, url, api, writer));
    if (isPageDocumentRequest(req)) allowBackForwardCache(res);
    if (nextServer.handle) return void nextServer.handle(req, res);
    void prepared.then(() => nextServer.handle!(req, res));
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
  // Memory a load freed, given back once the process is quiet (where gc is exposed: Node 24 and later, scripts/web.mjs).
  const { logger } = await import("./services");
  startIdleMemoryRelease(({ rssBefore, rssAfter, ms }) =>
    logger.debug({ rssBeforeMb: Math.round(rssBefore / 2 ** 20), rssAfterMb: Math.round(rssAfter / 2 ** 20), ms: Math.round(ms) }, "idle: memory given back"),
  );

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
