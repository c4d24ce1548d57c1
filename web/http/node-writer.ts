import type { IncomingMessage, ServerResponse } from "node:http";
import { gzip } from "node:zlib";
import type { Answer } from "./api";
import type { ApiRequest, RequestHeaders } from "./endpoint";
import { codedTagNamed } from "./encoding-etag";

/**
 * An Answer (web/http/api.ts) written straight to node:http by the web
 * launcher: no fetch Request or Response on the way, the JSON text written
 * as it came from PostgreSQL, its ETag computed once (in the Answer) and
 * suffixed per coding (web/http/encoding-etag.ts).
 *
 * Compression pays only above a size: a small body costs more to deflate
 * than its bytes cost to send, so bodies under COMPRESS_MIN_BYTES go as they
 * are. Above it, gzip at level 1: on this JSON it is some 3x cheaper than
 * the default level 6 for a body a few percent larger. COMPRESS=false (a
 * proxy in front compresses) turns it off, as it does Next's.
 */
export const COMPRESS_MIN_BYTES = 1024;
const GZIP_LEVEL = 1;

export interface WriterOptions {
  compress: boolean;
}

/** The launcher's view of node:http's headers (joined as fetch joins repeats). */
export function headersOf(req: IncomingMessage): RequestHeaders {
  return {
    get: (name) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/**
 * An ApiRequest over node:http; its abort signal is made only when asked for
 * (the stream). A class with the getter on its prototype, not an object
 * literal with a `get signal()`: V8 gives each such literal an accessor of
 * its own (the object in dictionary mode), and until the next full
 * collection the young generation's collections kept the getter's closure
 * alive, and with it everything it reaches: the response, the request, the
 * socket's buffers. Every /v1 request's objects were promoted so (some 3 KB
 * a request, 2.3 MB a scavenge): scavenges of 4-6 ms instead of under 1, and
 * the no-op route served a third fewer requests (docs/benchmarks-api.md,
 * session 27).
 */
class NodeApiRequest implements ApiRequest {
  private controller: AbortController | undefined;
  readonly method: string;
  readonly headers: RequestHeaders;

  constructor(
    req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly url: URL,
    readonly params: Record<string, string>,
  ) {
    this.method = req.method ?? "GET";
    this.headers = headersOf(req);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const made = (this.controller = new AbortController());
      this.res.once("close", () => made.abort());
    }
    return this.controller.signal;
  }
}

export const apiRequestOf = (req: IncomingMessage, res: ServerResponse, url: URL, params: Record<string, string>): ApiRequest =>
  new NodeApiRequest(req, res, url, params);

/** Whether the client takes gzip (a q=0 refuses it). */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const at = header.toLowerCase().indexOf("gzip");
  if (at < 0) return false;
  const rest = header.slice(at + 4, header.indexOf(",", at) < 0 ? undefined : header.indexOf(",", at));
  return !/;\s*q=0(?:\.0*)?\s*$/.test(rest);
}

const gzipped = (body: string | Buffer) =>
  new Promise<Buffer>((resolve, reject) => gzip(body, { level: GZIP_LEVEL }, (e, out) => (e ? reject(e) : resolve(out))));

/**
 * Writes the answer; its headers object is the writer's to complete (each
 * Answer is made for one request), not copied. The body goes as it came: a
 * text (node:http sends the head and a string body in one write) or a larger
 * body's bytes (a second chunk of the same write; web/http/body-memo.ts).
 */
export async function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer, options: WriterOptions): Promise<void> {
  const head = req.method === "HEAD";
  const { status, headers, body } = answer;
  if (body === null || status === 304 || status === 204) {
    const etag = headers.etag;
    const coded = status === 304 && etag ? codedTagNamed(etag, req.headers["if-none-match"]) : undefined;
    if (coded) headers.etag = coded;
    res.writeHead(status, headers);
    res.end();
    return;
  }
  if (body instanceof ReadableStream) return pipeStream(res, status, headers, body, head);
  const bytes = Buffer.byteLength(body);
  // Each answer varies by the coding asked, whichever is sent this time (a cache must key on it).
  if (options.compress) headers.vary = "Accept-Encoding";
  if (!options.compress || bytes < COMPRESS_MIN_BYTES || head || !acceptsGzip(req.headers["accept-encoding"])) {
    headers["content-length"] = String(bytes);
    res.writeHead(status, headers);
    res.end(head ? undefined : body);
    return;
  }
  const coded = await gzipped(body);
  if (headers.etag) headers.etag = `${headers.etag.slice(0, -1)}-gzip"`;
  headers["content-encoding"] = "gzip";
  headers["content-length"] = String(coded.length);
  res.writeHead(status, headers);
  res.end(coded);
}

/**
 * Resolves when the socket takes writes again or the client has gone; the
 * other listener is removed, or a long export (a wait per full socket) would
 * pile them on the response.
 */
export function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** The event stream, written as its frames come, pausing while the socket is full; it ends when the client goes. */
async function pipeStream(res: ServerResponse, status: number, headers: Record<string, string>, stream: ReadableStream<Uint8Array | string>, head: boolean): Promise<void> {
  res.writeHead(status, headers);
  if (head) {
    await stream.cancel();
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = stream.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drainedOrClosed(res);
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    // The stream cut off a reader that did not read: the connection goes, it resumes with Last-Event-ID.
    res.destroy();
  }
}
