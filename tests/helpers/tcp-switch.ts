import { createServer, connect, type Server, type Socket } from "node:net";
import { freePort } from "../../lib/db/embedded";

/**
 * A TCP forwarder to a real service that a test can cut and restore, so a
 * client configured with its address meets a real outage (connection refused,
 * open connections reset) and a real recovery, without touching the service.
 */
export interface TcpSwitch {
  port: number;
  url(scheme: string): string;
  /** Refuse new connections and reset the open ones. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTcpSwitch(targetHost: string, targetPort: number): Promise<TcpSwitch> {
  const port = await freePort();
  const open = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const s of [client, upstream]) {
          open.add(s);
          s.on("close", () => open.delete(s));
          s.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  const close = async () => {
    for (const s of open) s.resetAndDestroy();
    open.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  };
  await listen();
  return {
    port,
    url: (scheme) => `${scheme}://127.0.0.1:${port}`,
    cut: close,
    restore: listen,
    stop: close,
  };
}
