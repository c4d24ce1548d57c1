import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { FaultInjector, FaultKind } from "./faults";
import { callMethod, type RpcContext, RpcError } from "./rpc";

/** Admin routes under /_admin/: (body or query) -> JSON; thrown errors become 400. */
export type AdminRoutes = Record<string, (input: Record<string, unknown>) => unknown>;

export interface ServerStats {
  httpRequests: number;
  calls: number;
  byMethod: Record<string, number>;
  faults: Record<FaultKind, number>;
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;
/** What web3.js and wallet adapters send; a preflight naming others gets them echoed back, as nodes allow any. */
const CORS_ALLOWED_HEADERS = "content-type, solana-client";

interface Envelope {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

function idJson(id: unknown): string {
  return typeof id === "number" || typeof id === "string" ? JSON.stringify(id) : "null";
}

function errorResponse(id: unknown, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return `{"jsonrpc":"2.0","error":${JSON.stringify(error)},"id":${idJson(id)}}`;
}

/**
 * The HTTP side of the cluster: JSON-RPC 2.0 over POST (single calls and
 * batches), GET /health like a validator's, admin routes, and the fault
 * injector in front of everything but admin.
 */
export class RpcServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  readonly stats: ServerStats;

  constructor(
    private readonly ctx: RpcContext,
    private readonly faults: FaultInjector,
    private readonly admin: AdminRoutes,
    /** WebSocket upgrades on the RPC port (the PubSub server takes them). */
    upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void,
  ) {
    this.stats = { httpRequests: 0, calls: 0, byMethod: {}, faults: faults.counts };
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 65_000;
    if (upgrade) this.server.on("upgrade", upgrade);
    this.server.on("connection", (socket) => {
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => {
        this.server.off("error", reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    // Browsers call the RPC from the web app's origin, as they call public RPC nodes: any origin may.
    res.setHeader("access-control-allow-origin", "*");
    if (req.method === "OPTIONS") {
      const requested = req.headers["access-control-request-headers"];
      res.writeHead(204, {
        "access-control-allow-methods": "POST, GET, OPTIONS",
        "access-control-allow-headers": typeof requested === "string" && requested.length > 0 ? requested : CORS_ALLOWED_HEADERS,
        "access-control-max-age": "86400",
        "content-length": "0",
      });
      res.end();
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      try {
        this.route(req, res, body);
      } catch (e) {
        if (!res.headersSent) this.send(res, 500, `{"error":${JSON.stringify(String(e))}}`);
      }
    });
  }

  private send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
    res.end(body);
  }

  private route(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname.startsWith("/_admin/")) return this.handleAdmin(url, req, res, body);
    if (req.method === "GET" && url.pathname === "/health") {
      const behind = this.ctx.ledger.behindSlots;
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(behind > 0 ? "behind" : "ok");
      return;
    }
    if (req.method !== "POST") return this.send(res, 405, errorResponse(null, -32600, "Invalid request"));
    this.stats.httpRequests++;

    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return this.send(res, 200, errorResponse(null, -32700, "Parse error"));
    }
    const calls: Envelope[] | null = Array.isArray(parsed) ? (parsed as Envelope[]) : null;
    const methods = (calls ?? [parsed as Envelope]).map((c) => (c && typeof c.method === "string" ? c.method : ""));

    const fault = this.faults.decide(methods);
    if (fault && this.injectFault(fault, req, res, () => this.answer(parsed, calls))) return;
    this.send(res, 200, this.answer(parsed, calls));
  }

  private answer(parsed: unknown, calls: Envelope[] | null): string {
    if (calls === null) return this.call(parsed as Envelope);
    if (calls.length === 0) return errorResponse(null, -32600, "Invalid request");
    return `[${calls.map((c) => this.call(c)).join(",")}]`;
  }

  private call(envelope: Envelope): string {
    if (!envelope || typeof envelope !== "object" || typeof envelope.method !== "string") {
      return errorResponse(envelope?.id, -32600, "Invalid request");
    }
    this.stats.calls++;
    this.stats.byMethod[envelope.method] = (this.stats.byMethod[envelope.method] ?? 0) + 1;
    try {
      const result = callMethod(this.ctx, envelope.method, envelope.params);
      return `{"jsonrpc":"2.0","result":${result},"id":${idJson(envelope.id)}}`;
    } catch (e) {
      if (e instanceof RpcError) return errorResponse(envelope.id, e.code, e.message, e.data);
      return errorResponse(envelope.id, -32603, `Internal error: ${(e as Error).message}`);
    }
  }

  /** Returns true when the fault answered (or abandoned) the request itself. */
  private injectFault(kind: FaultKind, req: IncomingMessage, res: ServerResponse, answer: () => string): boolean {
    switch (kind) {
      case "http500":
        this.send(res, 500, "Internal Server Error", { "content-type": "text/plain" });
        return true;
      case "http502":
        this.send(res, 502, "<html><body><h1>502 Bad Gateway</h1></body></html>", { "content-type": "text/html" });
        return true;
      case "http503":
        this.send(res, 503, "Service Unavailable", { "content-type": "text/plain" });
        return true;
      case "http429":
        this.send(res, 429, errorResponse(null, 429, "Too many requests for a specific RPC call, contact your app developer or support@rpcpool.com."), {
          "retry-after": String(this.faults.retryAfterSeconds),
        });
        return true;
      case "malformed": {
        const full = answer();
        this.send(res, 200, full.slice(0, Math.max(1, Math.floor(full.length / 2))));
        return true;
      }
      case "truncated": {
        // Promise a full body, send half, then cut the connection.
        const full = answer();
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(full) });
        res.write(full.slice(0, Math.floor(full.length / 2)), () => req.socket.destroy());
        return true;
      }
      case "drop":
        req.socket.destroy();
        return true;
      case "slow":
        setTimeout(() => {
          if (!req.socket.destroyed) this.send(res, 200, answer());
        }, this.faults.slowMs);
        return true;
      case "rpc_error":
        this.send(res, 200, errorResponse(null, -32005, "Node is unhealthy", { numSlotsBehind: null }));
        return true;
    }
  }

  private handleAdmin(url: URL, req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const name = url.pathname.slice("/_admin/".length);
    const route = Object.hasOwn(this.admin, name) ? this.admin[name] : undefined;
    if (!route) return this.send(res, 404, `{"error":"unknown admin route ${name}"}`);
    let input: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (req.method === "POST" && body.length > 0) {
      try {
        input = { ...input, ...(JSON.parse(body.toString("utf8")) as Record<string, unknown>) };
      } catch {
        return this.send(res, 400, `{"error":"body is not JSON"}`);
      }
    }
    try {
      const result = route(input);
      this.send(res, 200, JSON.stringify(result ?? { ok: true }, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
    } catch (e) {
      this.send(res, 400, JSON.stringify({ error: (e as Error).message }));
    }
  }
}
