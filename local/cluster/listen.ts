/**
 * How the cluster takes its two ports, the RPC's and its PubSub WebSocket's
 * (by default the RPC port + 1, where clients look for it). Ports are taken
 * by binding them, never by checking first: two clusters starting at the same
 * moment on the same preferred port would both find it free, and one would
 * then fail to bind. With `fallback` (no port was asked for, only preferred),
 * a pair in use is given back and another tried, the kernel's choice of the
 * RPC port and the next one for the WebSocket; so too when the RPC port is
 * left to the kernel (0) and its next port is in use.
 */

export interface Listener {
  /** Resolves to the port listened on; rejects (EADDRINUSE, say) when it cannot. */
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** The RPC port: 0 leaves it to the kernel. */
  port: number;
  /** The WebSocket's own port; default the RPC port + 1. */
  wsPort?: number;
  /** When `port` is only preferred: take another pair rather than fail when it (or its + 1) is in use. */
  fallback?: boolean;
}

export interface Listening {
  port: number;
  wsPort: number;
  /** The preferred port found in use (the RPC's or its + 1) when another pair was taken instead; null otherwise. */
  taken: number | null;
}

/** How many pairs to try before giving up: the kernel's picks collide with a taken + 1 rarely. */
const ATTEMPTS = 20;

function inUse(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  // A kernel's pick of 65535 leaves no next port for the WebSocket.
  return code === "EADDRINUSE" || code === "ERR_SOCKET_BAD_PORT";
}

export async function listenBoth(rpc: Listener, ws: Listener, host: string, options: ListenOptions): Promise<Listening> {
  let port = options.port;
  let taken: number | null = null;
  for (let attempt = 1; ; attempt++) {
    // Another pair is tried only for a port that was not asked for, and only while the WebSocket follows the RPC port.
    const mayRetry = (error: unknown) => inUse(error) && (port === 0 || options.fallback === true) && options.wsPort === undefined && attempt < ATTEMPTS;
    let rpcPort: number;
    try {
      rpcPort = await rpc.listen(port, host);
    } catch (error) {
      if (!mayRetry(error)) throw error;
      if (port !== 0) taken ??= port;
      port = 0;
      continue;
    }
    const wsPort = options.wsPort ?? rpcPort + 1;
    try {
      return { port: rpcPort, wsPort: await ws.listen(wsPort, host), taken };
    } catch (error) {
      await rpc.close();
      if (!mayRetry(error)) throw error;
      if (port !== 0) taken ??= wsPort;
      port = 0;
    }
  }
}

/** The port a local cluster prefers when none is asked for: a validator's 8899. OFFER_BOOK_LOCALNET_DEFAULT_PORT moves it, for tests only. */
export function preferredClusterPort(): number {
  return Number(process.env.OFFER_BOOK_LOCALNET_DEFAULT_PORT || 8899);
}

/** The line saying the preferred pair was in use and where the cluster listens instead; null when it took the preferred pair. */
export function movedPortsLine(cluster: { takenPort: number | null; port: number; wsPort: number }): string | null {
  if (cluster.takenPort === null) return null;
  return `port ${cluster.takenPort} is taken (another Solana validator?): the local cluster listens on ${cluster.port} and its WebSocket on ${cluster.wsPort} instead`;
}
