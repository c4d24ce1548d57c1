import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

// `npm test` is what CI trusts: a failing test must make it exit non-zero.
// (The embedded PostgreSQL package, which the integration and e2e tiers'
// global setups load, once turned every exit into 0.)
const ROOT = path.resolve(import.meta.dirname, "../..");

it("exits non-zero when a test fails, with the integration tier's global setup loaded", () => {
  const run = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", "tests/fixtures/exit-code/vitest.config.ts"], {
    cwd: ROOT,
    env: { ...process.env, CI: "true" },
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.stdout + run.stderr).toMatch(/1 failed/);
  expect(run.status).toBe(1);
}, 150_000);
