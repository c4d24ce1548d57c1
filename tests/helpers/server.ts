import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ensureProductionBuild } from "../setup/next-build";
import { checkContract } from "./contract";
import { portOutsideEphemeralRange } from "./reserved-port";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WEB_LAUNCHER = path.join(ROOT, "scripts/web.mjs");

export interface WebServer {
  baseUrl: string;
  /** The web process's id (for its memory, or a kill -9). */
  pid: number;
  get(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  /** GET and parse: the status, headers and JSON body, checked against the OpenAPI document (tests/helpers/contract.ts). */
  json<T = any>(pathAndQuery: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: T }>;
  stop(): Promise<void>;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
}

/**
 * Resolves once this child says it serves (the launcher's "web: serving on"
 * line, written after it holds the port and Next is ready), so a probe can
 * never reach another process that holds the port; rejects when it exits first.
 */
function untilServing(child: ChildProcess, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`the web server did not say it serves within 60 s:\n${output()}`)), 60_000);
    const onData = () => {
      if (output().includes("web: serving on http")) settle();
    };
    // "close", not "exit": its last words are read by then.
    const onExit = (code: number | null) => settle(new Error(`the web server exited with ${code}:\n${output()}`));
    function settle(error?: Error) {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("close", onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on("data", onData);
    child.once("close", onExit);
    onData();
  });
}

/**
 * The production web server (`npm run web`: Next.js behind web/launcher.ts) as
 * its own process, on a port outside the kernel's ephemeral range (one drawn
 * from it could meanwhile be any connection's source port); another port
 * when a parallel suite took that one first. `nodeArgs` go to its Node before
 * the launcher (kept when the launcher starts its process again on Node 24).
 */
export async function startWebServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<WebServer> {
  await ensureProductionBuild();
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnWebServer(env, await portOutsideEphemeralRange(), nodeArgs);
    } catch (error) {
      if (attempt === 3 || !/port \d+ is already in use/.test(String(error))) throw error;
    }
  }
}

async function spawnWebServer(env: Record<string, string>, port: number, nodeArgs: string[]): Promise<WebServer> {
  const child = spawn(process.execPath, [...nodeArgs, WEB_LAUNCHER], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "silent", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  // A web that never said it serves is not left running (a 60 s hang).
  await untilServing(child, () => output).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  return {
    ...jsonClient(baseUrl),
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** GET and GET-and-parse on a web server already running at `baseUrl` (a WebServer's own, or one of the scale topology's). */
export function jsonClient(baseUrl: string): Pick<WebServer, "baseUrl" | "get" | "json"> {
  const get = (p: string, init?: RequestInit) => fetch(`${baseUrl}${p}`, init);
  return {
    baseUrl,
    get,
    async json(p, init) {
      const response = await get(p, init);
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`${p} answered ${response.status} with a body that is not JSON: ${text.slice(0, 300)}`);
      }
      if ((init?.method ?? "GET") === "GET") checkContract(p, response.status, body);
      return { status: response.status, headers: response.headers, body: body as any };
    },
  };
}

/** A metric on the web process's /metrics (one sample, no labels); NaN when it has none. */
export async function webMetric(server: WebServer, name: string): Promise<number> {
  const text = await (await server.get("/metrics")).text();
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
}

/**
 * Request budgets count in fixed one-minute windows: a test that spends one
 * and then expects refusals starts early in a window, so no rollover refills
 * the budget mid-test (waits at most 15 s).
 */
export async function earlyInBudgetWindow(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 200));
}
