import { readFileSync } from "node:fs";
import { isPortFree } from "../../platform/ports";

// A port chosen now and listened on later (by another process, or after a
// client has been retrying it) must not come from the kernel's ephemeral
// range: meanwhile any outgoing connection may be given it as its source port
// (a client retrying the closed port can even connect to itself), and the
// listen fails with EADDRINUSE. A cluster's port needs the next one free too
// (its WebSocket), which freePort() does not check. Both seen in CI.

/** The first port of the kernel's ephemeral range. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (low) return low;
  } catch {
    // not Linux: the IANA range
  }
  return 49152;
}

/** A free port, with the next one free too (a cluster's WebSocket), below the ephemeral range. */
export async function portOutsideEphemeralRange(): Promise<number> {
  const top = ephemeralLow() - 2;
  const bottom = Math.max(10_000, top - 20_000);
  for (let i = 0; i < 200; i++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom));
    if ((await isPortFree(port, "127.0.0.1")) && (await isPortFree(port + 1, "127.0.0.1"))) return port;
  }
  throw new Error(`no free port pair between ${bottom} and ${top}`);
}

/** `count` different ports from portOutsideEphemeralRange (it may draw one twice). */
export async function portsOutsideEphemeralRange(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await portOutsideEphemeralRange());
  return [...ports];
}
