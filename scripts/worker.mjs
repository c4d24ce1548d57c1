// `npm run worker`: the scanner process, bundled and run in this process (see
// run-bundled.mjs): the worker should stay small, and SIGTERM reaches it
// directly, so it still ends with the batch in hand and exit 0.
import { runBundled } from "./run-bundled.mjs";

await runBundled("worker/main.ts", "worker");
