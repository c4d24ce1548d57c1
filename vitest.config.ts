import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Three tiers (README "Tests"): `npm run test:unit`, `test:integration`,
// `test:e2e`; `npm test` runs them all, in one pool of two workers.
// - unit: pure code, no global setup, no database, no network; seconds.
// - integration: real PostgreSQL, Redis and HTTP between real processes; the
//   Next.js build only for the files that start a web server.
// - e2e: Debian's Chromium against the production build.
// A test waits on a condition, never a fixed time; the timeouts below only end
// a test that hangs, so they are generous for a machine under load.

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], setupFiles: ["tests/setup/unit-offline.ts"], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/integration.ts"],
          testTimeout: 120_000,
          hookTimeout: 600_000, // a beforeAll may wait for the Next.js build (tests/setup/next-build.ts)
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/setup/e2e.ts"],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
