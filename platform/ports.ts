import { createServer } from "node:net";
import { sleep } from "../lib/resilience";
import { StartupError } from "./startup-error";

/**
 * Whether a TCP port can be listened on. `host` undefined tests the wildcard
 * address, as `next start` binds it: on Linux a wildcard bind fails while any
 * address holds the port, so this also finds a server on 127.0.0.1 only.
 */
export function isPortFree(port: number, host?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Throws a StartupError naming the port and the variable that moves it when the port is taken. */
export async function requireFreePort(port: number, variable: string, what: string, host?: string): Promise<void> {
  if (await isPortFree(port, host)) return;
  throw new StartupError(`port ${port} (${what}) is already in use`, `stop what listens there or set ${variable} to a free port`);
}

/** Waits up to `ms` for a port to come free (a stopping process may still hold it); true when it did. */
export async function waitForFreePort(port: number, ms: number, host?: string): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await isPortFree(port, host)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(200);
  }
}
