import type { TestProject } from "vitest/node";
import { provideServices } from "./services";

// The integration tier's global setup: PostgreSQL and Redis. The Next.js build
// is made by the files that start a web server, when they start it
// (tests/setup/next-build.ts), so a run of the token or cluster suites alone
// never builds.

export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return provideServices(project);
}
