import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

// A Node process with the collector exposed (as scripts/web.mjs starts the web
// on Node 24): it is busy for a while, then idles; the watcher must collect
// once, on its own, and say what it gave back. No figure is asserted: how much
// comes back is bench:api's and bench:stream's to print.
const SCRIPT = `
import { startIdleMemoryRelease } from "./platform/idle-memory.ts";
startIdleMemoryRelease((release) => {
  console.log(JSON.stringify(release));
  process.exit(0);
}, { checkMs: 200, busyUtilization: 0.25, quietUtilization: 0.05, quietChecks: 3, growthBytes: 2 ** 40 });
let keep = [];
const until = Date.now() + 1500;
const churn = () => {
  keep.push(Array.from({ length: 1000 }, (_, i) => ({ i, s: "x" + i })));
  if (keep.length > 100) keep = keep.slice(50);
  if (Date.now() < until) setImmediate(churn);
  else keep = [];
};
churn();
setInterval(() => {}, 1000); // idle, but alive, until the watcher has collected
`;

function runScript(flags: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, "--import", "tsx", "--input-type=module", "-e", SCRIPT], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("a quiet process gives a load's memory back (platform/idle-memory.ts)", () => {
  it("collects once after a busy spell followed by quiet checks, and reports the sizes before and after", async () => {
    const { code, stdout, stderr } = await runScript(["--expose-gc"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const release = JSON.parse(stdout.trim());
    expect(release).toEqual({ rssBefore: expect.any(Number), rssAfter: expect.any(Number), ms: expect.any(Number) });
  }, 60_000);
});
