import net from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

export interface RawAnswer {
  /** undefined: the server closed the connection without an answer. */
  status?: number;
  headers: Record<string, string>;
  body: string;
  elapsedMs: number;
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * Sends `request` as bytes over a fresh TCP connection and reads the answer
 * until the server closes it (send `connection: close`), or fails after
 * `timeoutMs`: a hang is a failure, not a wait.
 */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms (a hang)`));
    }, timeoutMs);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", () => {}); // a reset after the answer is the server closing; judged below
    socket.on("close", () => {
      clearTimeout(timer);
      const data = Buffer.concat(chunks);
      const elapsedMs = Date.now() - started;
      const headEnd = data.indexOf("\r\n\r\n");
      if (data.length === 0 || headEnd < 0) return resolve({ headers: {}, body: data.toString("latin1"), elapsedMs });
      const [statusLine, ...lines] = data.subarray(0, headEnd).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body: Buffer = data.subarray(headEnd + 4);
      if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = decodeChunked(body);
      const encoding = headers["content-encoding"];
      if (body.length > 0 && encoding === "gzip") body = gunzipSync(body);
      if (body.length > 0 && encoding === "deflate") body = inflateSync(body);
      if (body.length > 0 && encoding === "br") body = brotliDecompressSync(body);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: body.toString("utf8"), elapsedMs });
    });
  });
}
