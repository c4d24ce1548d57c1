import type { Answer } from "./api";
import type { ApiRequest, Endpoint } from "./endpoint";

/**
 * A /v1 endpoint as Next's route handlers (app/v1/**\/route.ts, one line
 * each), for `next start` or any host that runs Next alone. The web launcher
 * answers /v1 itself (web/http/node-writer.ts) from the same Answer.
 */

type Serve = (endpoint: Endpoint, request: ApiRequest) => Promise<Answer>;
type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** A stream's text chunks as the bytes a Web Response carries; byte chunks pass as they are. */
function chunksAsBytes(): TransformStream<Uint8Array | string, Uint8Array> {
  const encoder = new TextEncoder();
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    },
  });
}

export function toWebResponse(answer: Answer): Response {
  const body = answer.body instanceof ReadableStream ? answer.body.pipeThrough(chunksAsBytes()) : answer.body;
  // A Buffer is a Uint8Array: sent as its bytes (the DOM typing wants an ArrayBuffer-backed view).
  return new Response(body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

export function nextHandlers(serve: Serve, endpoint: Endpoint) {
  const handle = async (request: Request, context: RouteContext): Promise<Response> => {
    const raw = await context.params;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw ?? {})) params[name] = Array.isArray(value) ? value.join("/") : String(value ?? "");
    const apiRequest: ApiRequest = { method: request.method, url: new URL(request.url), headers: request.headers, params, signal: request.signal };
    return toWebResponse(await serve(endpoint, apiRequest));
  };
  return { GET: handle, HEAD: handle, OPTIONS: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle };
}
