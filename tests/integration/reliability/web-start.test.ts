import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../platform/postgres/embedded";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { USDC, WSOL } from "../../helpers/fixtures";
import { startWebServer } from "../../helpers/server";

const LAUNCHER = path.resolve(import.meta.dirname, "../../../scripts/web.mjs");

function runWeb(env: Record<string, string>) {
  return spawnSync(process.execPath, [LAUNCHER], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    encoding: "utf8",
    timeout: 100_000, // a bound for a hung launcher, under the test's own 120 s: a loaded machine has taken over 30 s to start Node twice (Node 24 re-execs)
  });
}

describe("npm run web start failures are one line and a non-zero exit", () => {
  it("names the taken PORT and the fix", async () => {
    const port = await freePort();
    const holder = net.createServer().listen(port);
    await new Promise((r) => holder.once("listening", r));
    try {
      const run = runWeb({ PORT: String(port) });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(`web: port ${port} is already in use: stop what is listening there or set PORT to a free port`);
    } finally {
      holder.close();
    }
  });

  it("names a bad variable on one line", () => {
    const run = runWeb({ PORT: "abc" });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^web: invalid environment: PORT: .*: correct or unset these variables$/m);
  });
});

// Node 24's V8 sizes the young generation 4x Node 20's and no longer gives a
// quiet server's freed pages back; the launcher keeps the young generation's
// semi-spaces between 16 and 32 MB and exposes the collector for platform/idle-memory.ts
// (scripts/web.mjs, docs/benchmarks-api.md "Memory") by starting the same
// process again with the flags: same pid, still serving.
describe("the web's V8 flags", () => {
  const NODE24 = Number(process.versions.node.split(".")[0]) >= 24;
  const flagsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((arg) => /^--(max|min)-semi-space-size/.test(arg) || arg === "--expose-gc");
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it(`keeps semi-spaces of 16 to 32 MB with the collector exposed (for giving idle memory back) on Node 24, and left at V8's defaults on older Nodes (this is ${process.version})`, async () => {
    const server = await startWebServer({ DATABASE_URL: database.url });
    try {
      expect(flagsOf(server.pid)).toEqual(NODE24 ? ["--max-semi-space-size=32", "--min-semi-space-size=16", "--expose-gc"] : []);
      expect((await server.get("/v1")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("keeps the semi-space size the operator sets in NODE_OPTIONS", async () => {
    const server = await startWebServer({ DATABASE_URL: database.url, NODE_OPTIONS: "--max-semi-space-size=8" });
    try {
      // NODE_OPTIONS is not in the command line: no semi-space flag was added, only the collector on Node 24.
      expect(flagsOf(server.pid)).toEqual(NODE24 ? ["--expose-gc"] : []);
      expect((await server.get("/v1")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  // ioredis 6 defined `class VerbatimString extends String` as it loaded: the
  // web's decimal code then ran some 40% slower than the bare server's
  // (docs/benchmarks-api.md, session 29). Redis configured, so that its client connects.
  it.runIf(NODE24)("keeps V8's fast path for strings: nothing the web loads extends String", async () => {
    const probe = path.resolve(import.meta.dirname, "../../helpers/string-protector-probe.mjs");
    const env = { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379" };
    const server = await startWebServer(env, ["--allow-natives-syntax", "--import", probe]);
    try {
      expect((await server.get(`/v1/candles?tokenMint=${WSOL}&paymentMint=${USDC}&resolution=1h&invert=true`)).status).toBe(200);
      await server.stop(); // the probe prints as the process exits
      expect(server.output()).toContain("string wrapper protector: true");
    } finally {
      await server.stop(); // a no-op once stopped
    }
  });
});
