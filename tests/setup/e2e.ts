import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { CHROMIUM_APT, CHROMIUM_PATH } from "../e2e/browser";
import { ensureProductionBuild } from "./next-build";
import { provideServices } from "./services";

// The e2e tier's global setup: every file drives Debian's Chromium against
// the production build, so a missing browser fails here, once, with the apt
// line, and the build is made before the first file starts (not inside a
// test's hook timeout). Then PostgreSQL and Redis, as for the integration tier.

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}. Install Debian's package (${CHROMIUM_APT}) or set CHROMIUM_PATH.`);
  await ensureProductionBuild();
  return provideServices(project);
}
