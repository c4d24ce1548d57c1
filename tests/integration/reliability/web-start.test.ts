import { spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../../platform/postgres/embedded";

const LAUNCHER = path.resolve(import.meta.dirname, "../../../scripts/web.mjs");

function runWeb(env: Record<string, string>) {
  return spawnSync(process.execPath, [LAUNCHER], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    encoding: "utf8",
    timeout: 30_000,
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
