import { maxHeaderSize } from "node:http";
import type { Duplex } from "node:stream";
import { CORS_ORIGIN } from "./response";

/**
 * The answer to a request Node's HTTP parser refused before any handler saw
 * it (node:http's `clientError` event): the API's JSON error shape with CORS,
 * where Node's default is a bare status line with no body. A request line or
 * header block over the parser's limit (--max-http-header-size, 16 KB) is 414
 * when the request line alone is over it, 431 otherwise (Node counts both in
 * one limit; a request line whose end has not arrived when the limit is
 * reached, in a later packet, is answered 431: the parser gives no more); any other parse
 * failure is a 400. Where the socket can no longer be written (the client
 * reset it, or an answer was already started), nothing is sent.
 */
export interface ParserRefusal {
  status: 400 | 414 | 431;
  message: string;
}

interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

export function parserRefusal(error: ParserError): ParserRefusal {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    const packet = error.rawPacket;
    const lineEnd = packet ? packet.indexOf("\r\n") : -1;
    // The request line alone is over the limit: no line break within it.
    if (packet && (lineEnd < 0 ? packet.length : lineEnd) >= maxHeaderSize) return { status: 414, message: "the request target is too long (the request line exceeds 16 KB)" };
    return { status: 431, message: "the request's headers are too large (over 16 KB with the request line)" };
  }
  return { status: 400, message: "the request is not valid HTTP/1.1" };
}

const REASONS = { 400: "Bad Request", 414: "URI Too Long", 431: "Request Header Fields Too Large" } as const;

/** The bytes of the refusal, closing the connection (what follows on it cannot be parsed). */
export function parserRefusalBytes({ status, message }: ParserRefusal): string {
  const body = JSON.stringify({ error: message, code: "invalid_parameter" });
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    "cache-control": "no-store",
    ...CORS_ORIGIN,
    connection: "close",
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${REASONS[status]}\r\n${lines.join("\r\n")}\r\n\r\n${body}`;
}

export function answerClientError(error: ParserError, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(parserRefusalBytes(parserRefusal(error)));
}
