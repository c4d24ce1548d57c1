import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "../../platform/postgres/embedded";
import { ensureProductionBuild } from "../setup/next-build";
import { checkContract } from "./contract";

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

async function waitUntilServing(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the web server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/v1`);
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`the web server did not answer within 60 s:\n${output()}`);
}

/** The production web server (`npm run web`: Next.js behind web/launcher.ts) as its own process, on a free port. */
export async function startWebServer(env: Record<string, string>): Promise<WebServer> {
  await ensureProductionBuild();
  const port = await freePort();
  const child = spawn(process.execPath, [WEB_LAUNCHER], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "silent", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing(baseUrl, child, () => output);
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
