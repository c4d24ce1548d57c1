import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { portOutsideEphemeralRange, portsOutsideEphemeralRange } from "../../helpers/reserved-port";
import { ensureProductionBuild } from "../../setup/next-build";
import { isPostgresProcess, readPostmasterPid } from "../../../platform/postgres/postmaster";
import { until } from "../../helpers/until";

// The start failures a person meets, each through the real command: one line
// on stderr naming the cause and the fix, a non-zero exit, never a stack.
// Then a whole `npm start` life: the default cluster port taken, a second
// start refused, a part killed and restarted, the start itself killed with
// kill -9 and started again over what it left, and a clean SIGTERM.
// Each start keeps its state in a data directory of this suite's
// (OFFER_BOOK_DATA_DIR), never the checkout's own .data/, so a developer's
// `npm start` and these tests leave each other alone.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const DATA_DIR = path.join(ROOT, ".data", `start-failures-${process.pid}`);
const QUIET = { LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1", OFFER_BOOK_DATA_DIR: DATA_DIR };

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm <args> --silent` (npm's own banner off) to its end. */
function npm(args: string[], env: Record<string, string>, timeoutMs = 40_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", [...args, "--silent"], { cwd: ROOT, env: { ...process.env, ...QUIET, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`npm ${args.join(" ")} did not end within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A web port and a cluster port for an npm start, two different ones outside the ephemeral range. */
async function startPorts(): Promise<{ PORT: string; LOCALNET_PORT: string }> {
  const [web, cluster] = await portsOutsideEphemeralRange(2);
  return { PORT: String(web), LOCALNET_PORT: String(cluster) };
}

/** Our one line, whatever npm itself warns about its own configuration. */
function ourLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.trim() && !line.startsWith("npm warn"));
}

function expectOneLine(outcome: Outcome, program: string, ...parts: (string | RegExp)[]): void {
  const lines = ourLines(outcome.stderr);
  expect(lines, outcome.stderr).toHaveLength(1);
  expect(lines[0]!.startsWith(`${program}: `), lines[0]).toBe(true);
  for (const part of parts) expect(lines[0]).toMatch(part);
  expect(outcome.stderr).not.toMatch(/\n\s+at /); // no stack frame
  expect(outcome.code).not.toBe(0);
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A server listening on `port` (0: any free one), or undefined when the port is taken. */
function listenOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = (await listenOn(0))!;
  return { port: (server.address() as { port: number }).port, server };
}

/**
 * A held port whose previous port is free: LOCALNET_PORT there finds its
 * WebSocket's port (+ 1) taken. Below the ephemeral range, so the free one
 * stays free until the tests use it, minutes later (an outgoing connection
 * took it once in CI).
 */
async function holdPortAfterFree(): Promise<{ port: number; server: Server }> {
  for (;;) {
    const port = (await portOutsideEphemeralRange()) + 1;
    const server = await listenOn(port);
    if (server) return { port, server };
  }
}

let held: { port: number; server: Server };
let heldAfterFree: { port: number; server: Server };
beforeAll(async () => {
  await ensureProductionBuild(); // npm start would build it itself, inside a test
  held = await holdPort();
  heldAfterFree = await holdPortAfterFree();
});
afterAll(() => {
  held.server.close();
  heldAfterFree.server.close();
});

describe("one line and a non-zero exit for each start failure", () => {
  it("npm start with PORT taken names the port and PORT, before starting anything", async () => {
    const outcome = await npm(["start"], { PORT: String(held.port), LOCALNET_PORT: String(await portOutsideEphemeralRange()) });
    expectOneLine(outcome, "npm start", `port ${held.port} (the web server) is already in use`, /set PORT to a free port/);
    expect(outcome.stdout).not.toMatch(/database ready/);
  });

  it("npm start with TOKENS_PORT or an explicit LOCALNET_PORT taken names that variable", async () => {
    const ports = await startPorts();
    const tokens = await npm(["start"], { ...ports, TOKENS_PORT: String(held.port) });
    expectOneLine(tokens, "npm start", `port ${held.port} (the token stand-in)`, /set TOKENS_PORT/);
    const cluster = await npm(["start"], { PORT: ports.PORT, LOCALNET_PORT: String(held.port) });
    expectOneLine(cluster, "npm start", `port ${held.port} (the local cluster)`, /set LOCALNET_PORT/);
    // The cluster's PubSub WebSocket takes LOCALNET_PORT + 1, where web3.js looks for it.
    const websocket = await npm(["start"], { PORT: ports.PORT, LOCALNET_PORT: String(heldAfterFree.port - 1) });
    expectOneLine(websocket, "npm start", `port ${heldAfterFree.port} (the local cluster's WebSocket, LOCALNET_PORT + 1) is already in use`, /set LOCALNET_PORT/);
  });

  it("npm run web and npm run localnet with their port taken", async () => {
    const [web, localnet] = await Promise.all([
      npm(["run", "web"], { PORT: String(held.port) }),
      npm(["run", "localnet"], { LOCALNET_PORT: String(held.port) }),
    ]);
    const localnetWebsocket = await npm(["run", "localnet"], { LOCALNET_PORT: String(heldAfterFree.port - 1) });
    expectOneLine(localnetWebsocket, "localnet", `port ${heldAfterFree.port} (the local cluster's WebSocket, LOCALNET_PORT + 1) is already in use`, /set LOCALNET_PORT/);
    expectOneLine(web, "web", `port ${held.port} is already in use`, /set PORT/);
    expectOneLine(localnet, "localnet", `port ${held.port} (the local cluster) is already in use`, /set LOCALNET_PORT/);
  });

  // One test a case, each with the tier's budget: six npm runs in a row outlasted one test's 60 s on a loaded machine.
  const databaseCases: [string, () => Promise<[string, RegExp]>][] = [
    [
      "refused",
      async () => {
        const closed = await portOutsideEphemeralRange();
        return [`postgres://postgres@127.0.0.1:${closed}/x`, new RegExp(`no PostgreSQL answers at 127\\.0\\.0\\.1:${closed}.*start PostgreSQL there or correct DATABASE_URL`)];
      },
    ],
    ["unresolvable", async () => ["postgres://postgres@no-such-host.invalid/x", /the database host no-such-host\.invalid does not resolve.*correct the host in DATABASE_URL/]],
    [
      "naming a missing database",
      async () => [withDatabase(inject("adminDatabaseUrl"), "no_such_database_here"), /database "no_such_database_here" does not exist.*createdb no_such_database_here/],
    ],
  ];
  it.each(databaseCases)("npm start and npm run db:migrate with DATABASE_URL %s", async (_name, databaseCase) => {
    const [url, message] = await databaseCase();
    const migrate = await npm(["run", "db:migrate"], { DATABASE_URL: url });
    expectOneLine(migrate, "db:migrate", message);
    const start = await npm(["start"], { DATABASE_URL: url, ...(await startPorts()) });
    expectOneLine(start, "npm start", message);
  });

  it("a bad variable is one line naming it", async () => {
    expectOneLine(await npm(["start"], { PORT: "not-a-port" }), "npm start", /PORT/);
    expectOneLine(await npm(["start"], { ...(await startPorts()), LOCALNET_TPS: "abc" }), "npm start", /LOCALNET_TPS must be a non-negative number, got "abc"/);
  });
});

const started: ChildProcess[] = [];
// A failed assertion must not leave an npm start running: SIGTERM stops it and all it started.
afterAll(async () => {
  await Promise.all(
    started
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map((child) => new Promise((resolve) => child.once("exit", resolve).kill("SIGTERM"))),
  );
  rmSync(DATA_DIR, { recursive: true, force: true });
});

/** `npm start`'s own process (the command package.json runs), its output collected. */
function startProcess(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_FORMAT: "json", LOG_LEVEL: "info", NEXT_TELEMETRY_DISABLED: "1", OFFER_BOOK_DATA_DIR: DATA_DIR },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return { child, output: () => output };
}

async function statsStatus(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/stats`);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): { pid: number; args: string }[] {
  try {
    return execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [, id, args] = /^\s*(\d+)\s+(.*)$/.exec(line)!;
        return { pid: Number(id), args: args! };
      });
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** A live process (a zombie not yet reaped by the container's init counts as gone). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
};

describe("an npm start's life", () => {
  it("takes a free port pair when the default cluster port's WebSocket port is taken, restarts a killed part, survives its own kill -9, and stops cleanly", async () => {
    const port = await portOutsideEphemeralRange();
    const env = { PORT: String(port), OFFER_BOOK_LOCALNET_DEFAULT_PORT: String(heldAfterFree.port - 1), LOCALNET_HISTORY: "100", LOCALNET_TPS: "2" };

    // 1. The port beside the default cluster port (standing in for 8900 beside 8899) is taken: another pair is used, and said so.
    const first = startProcess(env);
    await until("the first start serving /v1/stats", async () => (await statsStatus(port)) === 200, { detail: first.output });
    const moved = new RegExp(`port ${heldAfterFree.port} is taken \\(another Solana validator\\?\\): the local cluster listens on (\\d+) and its WebSocket on (\\d+) instead`).exec(first.output());
    expect(moved, first.output()).not.toBeNull();
    expect(Number(moved![2])).toBe(Number(moved![1]) + 1);
    await until("the worker scanning the moved cluster", () => first.output().includes(`"rpc":"http://127.0.0.1:${moved![1]}"`), { detail: first.output });
    // Caught up over that RPC, the worker follows the local Yellowstone stream npm start serves beside the cluster (GEYSER_URL passed on).
    await until("the worker following the Geyser stream", () => first.output().includes("caught up with the chain; following the Geyser stream"), { detail: first.output });

    // 2. A second start from the same checkout: one line saying where the first runs.
    const second = await npm(["start"], await startPorts());
    expectOneLine(second, "npm start", `npm start is already running from this checkout (pid ${first.child.pid}, at http://localhost:${port})`);

    // 3. The worker killed: restarted after a backoff, said in one line; the web keeps serving.
    const worker = childrenOf(first.child.pid!).find((c) => c.args.includes("worker.mjs"))!;
    expect(worker).toBeDefined();
    process.kill(worker.pid, "SIGKILL");
    await until("the restart line", () => /the worker was killed by SIGKILL; restarting it in 1 s \(the rest keeps running\)/.test(first.output()), { detail: first.output });
    expect(await statsStatus(port)).toBe(200);
    await until("a new worker caught up", () => first.output().split('"msg":"caught up with the chain').length > 2, { detail: first.output });

    // 4. kill -9 of npm start itself: its worker and web stop by themselves; the embedded PostgreSQL is left, orphaned.
    const parts = childrenOf(first.child.pid!).filter((c) => c.args.includes("worker.mjs") || c.args.includes("web.mjs"));
    expect(parts.length).toBe(2);
    first.child.kill("SIGKILL");
    await until("the parts of the killed start exiting", () => parts.every((p) => !alive(p.pid)), { detail: first.output });
    const orphan = readPostmasterPid(path.join(DATA_DIR, "pg"));
    expect(orphan && isPostgresProcess(orphan.pid)).toBe(true);

    // 5. Started again over what the killed one left: the orphan is stopped, the new start serves.
    const again = startProcess({ ...env, LOCALNET_PORT: String(await portOutsideEphemeralRange()) });
    await until("the second start serving /v1/stats", async () => (await statsStatus(port)) === 200, { detail: again.output });
    expect(again.output()).toMatch(/an earlier npm start \(pid \d+\) was killed without stopping/);
    expect(again.output()).toContain(`stopping the embedded PostgreSQL (pid ${orphan!.pid}) an earlier npm start left running`);
    expect(alive(orphan!.pid)).toBe(false);
    // The web serves before the worker has loaded: a SIGTERM then ends it before its handler exists, with no "stopped" to show.
    await until("the second start's worker scanning", () => again.output().includes('"msg":"scanning"'), { detail: again.output });

    // 6. SIGTERM: the worker finishes its batch, everything stops, exit 0, nothing left behind.
    const children = childrenOf(again.child.pid!);
    const exited = new Promise<number | null>((resolve) => again.child.on("exit", (code) => resolve(code)));
    again.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(children.filter((c) => alive(c.pid))).toEqual([]);
    expect(existsSync(path.join(DATA_DIR, "start.json"))).toBe(false);
    expect(again.output()).toMatch(/"msg":"stopped"/);
  }, 150_000);
});
