// `npm run stack:scale`: the scale topology (docs/scale.md) in one command:
// a PostgreSQL primary and streaming replica, PgBouncer, Redis, two workers,
// two web processes and nginx in front, on the local cluster. Ctrl-C (or
// SIGTERM) stops everything it started. SCALE_PORT picks nginx's port.
import { dataDir } from "../platform/data-dir";
import { numberSetting } from "../platform/number-setting";
import { exitWithOneLine } from "../platform/startup-error";
import { startScaleStack, type ScaleStack } from "./scale/topology";

const verbose = process.env.SCALE_VERBOSE === "1";
let stack: ScaleStack | undefined;
let stopping = false;

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log("stack:scale: stopping everything it started");
  await stack?.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  stack = await startScaleStack({
    dir: dataDir("scale"),
    proxyPort: numberSetting("SCALE_PORT", 0) || undefined,
    log: (line) => {
      if (verbose || !/^(web|worker)\d: \{/.test(line)) console.log(line);
    },
  });
  console.log(`explorer behind nginx at ${stack.proxyUrl} (web ${stack.webUrls.join(", ")}); Ctrl-C stops everything`);
} catch (error) {
  if (!stopping) exitWithOneLine("stack:scale", error);
}
