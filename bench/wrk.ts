import { execFile } from "node:child_process";
import { promisify } from "node:util";

// wrk (Debian's `wrk` package): a C load generator on one epoll thread. Where
// the client shares two cores with the proxy it measures, a Node client
// (autocannon) spends a core of its own and its event loop's queueing shows up
// as the proxy's latency; wrk's does not. bench:scale's cache drill uses it
// when installed.

export interface WrkResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Socket errors and non-2xx/3xx answers. */
  errors: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function durationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) throw new Error(`wrk: unreadable duration ${JSON.stringify(text)}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/** Reads wrk's `--latency` report. */
export function parseWrk(report: string): WrkResult {
  const latency = (p: string) => {
    const match = new RegExp(`^\\s+${p}%\\s+(\\S+)$`, "m").exec(report);
    if (!match) throw new Error(`wrk: no ${p}% latency in its report`);
    return durationMs(match[1]!);
  };
  const requests = /^\s*(\d+) requests in/m.exec(report);
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(report);
  if (!requests || !rps) throw new Error("wrk: no request count in its report");
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(report);
  const errors = (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0) + (non2xx ? Number(non2xx[1]) : 0);
  return { requests: Number(requests[1]), rps: Number(rps[1]), p50: latency("50"), p99: latency("99"), errors };
}

export async function wrkInstalled(): Promise<boolean> {
  try {
    await promisify(execFile)("wrk", ["--version"]);
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1.
    return (error as { code?: unknown }).code === 1;
  }
}

/** `connections` connections on one thread against `url` for `seconds`. */
export async function wrk(url: string, seconds: number, connections: number, headers: Record<string, string> = {}): Promise<WrkResult> {
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), url];
  const { stdout } = await promisify(execFile)("wrk", args, { maxBuffer: 1 << 20 });
  return parseWrk(stdout);
}
