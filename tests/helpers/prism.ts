import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// Stoplight's Prism as a validating proxy in front of a running server: every
// answer passes through it, and what it finds against the OpenAPI document
// (in the request or in the response) comes back in the `sl-violations`
// header. A tool nobody here wrote, reading the document the server serves.

const PRISM = path.resolve(import.meta.dirname, "../../node_modules/.bin/prism");

export interface PrismViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface PrismProxy {
  /** GET through the proxy: the status and Prism's violations (location[0] is "request" or "response"). */
  get(pathAndQuery: string): Promise<{ status: number; violations: PrismViolation[] }>;
  stop(): Promise<void>;
}

/** Starts `prism proxy` on a free port over `document`, forwarding to `upstream`. */
export async function startPrismProxy(document: unknown, upstream: string): Promise<PrismProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), "prism-"));
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(document));
  // --cors=false: the server's own CORS headers pass as they are; -p 0: the port is taken by binding.
  const child = spawn(PRISM, ["proxy", file, upstream, "-p", "0", "--cors=false", "--errors=false"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /Prism is listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`prism exited with ${code} before listening:\n${output}`)));
  });
  const baseUrl = await listening;
  return {
    async get(pathAndQuery) {
      const response = await fetch(`${baseUrl}${pathAndQuery}`);
      await response.arrayBuffer();
      const header = response.headers.get("sl-violations");
      return { status: response.status, violations: header ? (JSON.parse(header) as PrismViolation[]) : [] };
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
