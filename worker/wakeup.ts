import type { Logger } from "pino";
import WebSocket from "ws";
import { createReportGate, exponentialBackoff, jitterAround } from "../lib/resilience";
import type { WorkerMetrics } from "./metrics";

/**
 * The scanner's wake-up: a `logsSubscribe` (mentions: the program) on the
 * RPC's PubSub WebSocket. A notification ends the scanner's wait between
 * rounds at once, so a new transaction is read within a round trip instead of
 * at the next poll; the poll stays the fallback and the source of truth (a
 * notification carries nothing the scanner uses but the fact that something
 * happened). Notifications during a round are coalesced into one more round.
 *
 * The socket is kept up for the worker's life: when it drops it is opened
 * again with a backoff, one line told on loss and one on return (at most one
 * pair a minute); an RPC without a WebSocket is told once, and polled.
 */
export interface Wakeup {
  /** Resolves after `ms`, on abort, or as soon as a notification comes (at once if one came since the last wait). */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  readonly connected: boolean;
  close(): void;
}

export interface WakeupOptions {
  url: string;
  programId: string;
  commitment: "confirmed" | "finalized";
  /** The poll's interval, for the log lines. */
  pollMs: number;
  log: Logger;
  metrics: WorkerMetrics;
}

const SUBSCRIBE_ID = 1;
/** Before reopening a dropped socket: 0.5 s, doubling to 30 s, give or take a fifth. */
const reopenDelay = exponentialBackoff({ baseMs: 500, maxMs: 30_000, jitter: jitterAround(0.2) });
const HEARTBEAT_MS = 20_000;
const LOG_EVERY_MS = 60_000;

export function startWakeup(options: WakeupOptions): Wakeup {
  const { url, log, metrics } = options;
  let socket: WebSocket | null = null;
  let connected = false;
  let everConnected = false;
  let toldUnavailable = false;
  let closed = false;
  let failures = 0;
  const lossReport = createReportGate(LOG_EVERY_MS);
  let lossTold = false;
  let pending = false;
  let waiter: (() => void) | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const wake = () => {
    metrics.wakeups.inc();
    if (waiter) waiter();
    else pending = true;
  };

  const setConnected = (value: boolean) => {
    connected = value;
    metrics.wakeupConnected.set(value ? 1 : 0);
  };

  const lost = (cause: string) => {
    const wasConnected = connected;
    setConnected(false);
    clearInterval(heartbeat);
    if (closed) return;
    if (wasConnected) {
      if (lossReport.due() !== null) {
        log.warn({ url, cause }, `lost the RPC's WebSocket (${cause}): polling every ${options.pollMs} ms until it is back`);
        lossTold = true;
      }
    } else if (!everConnected && !toldUnavailable) {
      log.info({ url, cause }, `no WebSocket wake-up at ${url} (${cause}): polling every ${options.pollMs} ms (set SOLANA_WS_URL if the RPC serves one elsewhere)`);
      toldUnavailable = true;
    }
    failures++;
    retryTimer = setTimeout(open, reopenDelay(failures - 1));
    retryTimer.unref();
  };

  function open(): void {
    if (closed) return;
    let alive = true;
    let settled = false;
    const ws = new WebSocket(url, { handshakeTimeout: 10_000 });
    socket = ws;
    const fail = (cause: string) => {
      if (settled) return;
      settled = true;
      ws.terminate();
      lost(cause);
    };
    ws.on("open", () => {
      const params = [{ mentions: [options.programId] }, { commitment: options.commitment }];
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_ID, method: "logsSubscribe", params }));
    });
    ws.on("message", (data) => {
      let message: { id?: unknown; result?: unknown; error?: { message?: string }; method?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return;
      }
      if (message.method === "logsNotification") return wake();
      if (message.id !== SUBSCRIBE_ID) return;
      if (message.error || typeof message.result !== "number") return fail(`logsSubscribe refused: ${message.error?.message ?? "no subscription id"}`);
      setConnected(true);
      failures = 0;
      if (lossTold) log.info({ url }, "the RPC's WebSocket is back: new transactions wake the scanner at once");
      else if (!everConnected) log.info({ url }, "new transactions wake the scanner at once (logsSubscribe on the RPC's WebSocket)");
      everConnected = true;
      lossTold = false;
      // What landed while the socket was away is read now rather than at the next poll.
      wake();
      // A connection that died without a close (a cable, a NAT) is found by its missing pong.
      heartbeat = setInterval(() => {
        if (!alive) return fail("no answer to a ping");
        alive = false;
        try {
          ws.ping();
        } catch {
          fail("closing");
        }
      }, HEARTBEAT_MS);
      heartbeat.unref();
    });
    ws.on("pong", () => {
      alive = true;
    });
    ws.on("unexpected-response", (_req, res) => fail(`HTTP ${res.statusCode} to the upgrade`));
    ws.on("error", (error) => fail((error as NodeJS.ErrnoException).code ?? error.message));
    ws.on("close", (code) => fail(`closed (${code})`));
  }

  open();

  return {
    get connected() {
      return connected;
    },
    wait(ms, signal) {
      if (pending || signal.aborted) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          waiter = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener("abort", done, { once: true });
        waiter = done;
      });
    },
    close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      socket?.terminate();
      setConnected(false);
    },
  };
}
