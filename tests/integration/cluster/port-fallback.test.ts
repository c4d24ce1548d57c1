import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type LocalCluster, startLocalCluster } from "../../../local/cluster/index";
import { portOutsideEphemeralRange } from "../../helpers/reserved-port";
import { until } from "../../helpers/until";

// The local cluster takes its ports by binding them. With no port asked for,
// the preferred pair (8899 and 8900 by default) is only preferred: a pair in
// use is given back and another taken. Two clusters started at the same
// moment on the same preferred port both come up (a check-then-bind start
// failed one of them with "127.0.0.1:8899 is already in use").

const ROOT = path.resolve(import.meta.dirname, "../../..");
const started: ChildProcess[] = [];
const clusters: LocalCluster[] = [];

afterAll(async () => {
  await Promise.all(clusters.map((c) => c.stop()));
  await Promise.all(
    started
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map((child) => new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM"))),
  );
});

function hold(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

async function health(url: string): Promise<unknown> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getHealth" }) });
  return ((await res.json()) as { result?: unknown }).result;
}

/** `npm run localnet`'s own process, with no LOCALNET_PORT: the preferred port moved to `preferred` (as tests do). */
function localnet(preferred: number): { child: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, OFFER_BOOK_LOCALNET_DEFAULT_PORT: String(preferred), LOCALNET_HISTORY: "20", LOCALNET_TPS: "0", LOCALNET_SEED: "port-race" };
  delete env.LOCALNET_PORT;
  const child = spawn(process.execPath, ["--import", "tsx", "local/cluster/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return { child, output: () => output };
}

function listening(run: { child: ChildProcess; output: () => string }): Promise<{ port: number; wsPort: number }> {
  return until(
    "the cluster listening",
    () => {
      const match = /local cluster listening on http:\/\/127\.0\.0\.1:(\d+), WebSocket ws:\/\/127\.0\.0\.1:(\d+)/.exec(run.output());
      if (match) return { port: Number(match[1]), wsPort: Number(match[2]) };
      if (run.child.exitCode !== null) throw new Error(`the cluster exited before listening:\n${run.output()}`);
      return undefined;
    },
    { detail: run.output },
  );
}

describe("a cluster whose port was not asked for", () => {
  it("takes another pair when the preferred port, or the one after it, is in use, and says which was taken", async () => {
    const preferred = await portOutsideEphemeralRange();
    const rpcHeld = await hold(preferred);
    try {
      const moved = await startLocalCluster({ seed: "port-fallback", port: preferred, portFallback: true });
      clusters.push(moved);
      expect(moved.takenPort).toBe(preferred);
      expect(moved.port).not.toBe(preferred);
      expect(moved.wsPort).toBe(moved.port + 1);
      expect(await health(moved.url)).toBe("ok");
    } finally {
      rpcHeld.close();
    }
    const next = await portOutsideEphemeralRange();
    const wsHeld = await hold(next + 1);
    try {
      const moved = await startLocalCluster({ seed: "port-fallback", port: next, portFallback: true });
      clusters.push(moved);
      expect(moved.takenPort).toBe(next + 1);
      expect([moved.port, moved.wsPort]).not.toContain(next + 1);
      // Asked for, the same port is a failure, as before.
      await expect(startLocalCluster({ seed: "port-fallback", port: next })).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      wsHeld.close();
    }
  });

  it("lets two clusters started at the same moment on the same preferred port both come up", async () => {
    const preferred = await portOutsideEphemeralRange();
    const [first, second] = await Promise.all([0, 1].map(() => startLocalCluster({ seed: "port-race", port: preferred, portFallback: true })));
    clusters.push(first!, second!);
    expect([first!.port, second!.port]).toContain(preferred);
    expect(first!.port).not.toBe(second!.port);
    expect([first!.takenPort, second!.takenPort].filter((p) => p !== null)).toEqual([preferred]);
    expect(await Promise.all([health(first!.url), health(second!.url)])).toEqual(["ok", "ok"]);
  });

  it("lets two `npm run localnet` processes started at the same moment both come up on different ports", async () => {
    const preferred = await portOutsideEphemeralRange();
    const runs = [localnet(preferred), localnet(preferred)];
    const [a, b] = await Promise.all(runs.map(listening));
    expect([a!.port, b!.port]).toContain(preferred);
    expect(a!.port).not.toBe(b!.port);
    for (const { port, wsPort } of [a!, b!]) {
      expect(wsPort).toBe(port + 1);
      expect(await health(`http://127.0.0.1:${port}`)).toBe("ok");
    }
    // The one that moved says so in one line.
    const warnings = runs.map((r) => r.output()).filter((o) => o.includes(`port ${preferred} is taken (another Solana validator?): the local cluster listens on`));
    expect(warnings).toHaveLength(1);
  }, 90_000);
});
