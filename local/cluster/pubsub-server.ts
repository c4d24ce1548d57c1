import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { PubSub, PubSubError, type Send } from "./pubsub";

/**
 * The cluster's PubSub WebSocket: JSON-RPC 2.0 over `ws`, on a port of its
 * own (the RPC port + 1, where @solana/web3.js's Connection looks for it, as
 * beside solana-test-validator's 8899 on 8900) and on the RPC port itself
 * through the HTTP upgrade. It can be taken down and brought back (admin
 * route `websocket`), to test clients' reconnects and fallbacks.
 */
export class PubSubServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly server: Server;
  private down = false;

  constructor(readonly pubsub: PubSub) {
    this.server = createServer((_req, res) => {
      res.writeHead(405, { "content-type": "text/plain" });
      res.end("WebSocket only: connect with ws://");
    });
    this.server.on("upgrade", (req, socket, head) => this.upgrade(req, socket, head));
    this.wss.on("connection", (socket) => this.serve(socket));
  }

  /** Listens on `port` (0: any free one); rejects with EADDRINUSE when taken. */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      this.server.once("error", fail);
      this.server.listen(port, host, () => {
        this.server.off("error", fail);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** For the RPC server's `upgrade` event. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.down) {
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
  }

  /** Down: every connection is cut and new ones are refused, as when a node's WebSocket is gone. */
  setDown(down: boolean): void {
    this.down = down;
    if (down) for (const client of this.wss.clients) client.terminate();
  }

  get isDown(): boolean {
    return this.down;
  }

  get connections(): number {
    return this.wss.clients.size;
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private serve(socket: WebSocket): void {
    const send: Send = (message) => {
      if (socket.readyState === socket.OPEN) socket.send(message);
    };
    socket.on("message", (data) => {
      const answer = this.answer(String(data), send);
      if (answer) send(answer);
    });
    socket.on("close", () => this.pubsub.dropConnection(send));
    socket.on("error", () => socket.terminate());
  }

  private answer(text: string, send: Send): string | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return errorJson(null, -32700, "Parse error");
    }
    if (!Array.isArray(parsed)) return this.call(parsed, send);
    if (parsed.length === 0) return errorJson(null, -32600, "Invalid request");
    return `[${parsed.map((c) => this.call(c, send)).join(",")}]`;
  }

  private call(envelope: unknown, send: Send): string {
    const call = envelope as { id?: unknown; method?: unknown; params?: unknown } | null;
    if (!call || typeof call !== "object" || typeof call.method !== "string") return errorJson(call?.id, -32600, "Invalid request");
    try {
      return `{"jsonrpc":"2.0","result":${this.pubsub.call(call.method, call.params, send)},"id":${idJson(call.id)}}`;
    } catch (e) {
      if (e instanceof PubSubError) return errorJson(call.id, e.code, e.message);
      return errorJson(call.id, -32603, `Internal error: ${(e as Error).message}`);
    }
  }
}

function idJson(id: unknown): string {
  return typeof id === "number" || typeof id === "string" ? JSON.stringify(id) : "null";
}

function errorJson(id: unknown, code: number, message: string): string {
  return `{"jsonrpc":"2.0","error":${JSON.stringify({ code, message })},"id":${idJson(id)}}`;
}
