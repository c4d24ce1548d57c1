import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP port in front of a real server that can be closed and opened again:
 * a dependency that goes away and comes back, on a port that stays the same.
 */
export interface TcpProxy {
  url(scheme: string): string;
  open(): Promise<void>;
  /** Stops listening and cuts every connection (clients see the server gone). */
  close(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  // Reserve a free port, then release it: the proxy starts closed.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };

  return {
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    async open() {
      if (server) return;
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    },
    async close() {
      const closing = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}
