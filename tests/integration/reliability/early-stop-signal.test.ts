import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// A Ctrl-C while a part is still loading (scripts/hold-stop-signals.mjs): the
// signal is held until the program listens for it, then handled by the
// program, rather than ending the process with Node's default.

const run = promisify(execFile);
const hold = path.resolve("scripts/hold-stop-signals.mjs");

/**
 * A program that gets `signal` while it loads, and listens for it only after.
 * Signals are dispatched in the order they came: once a SIGUSR2 sent after it
 * is seen, `signal` has surely been dispatched too (to the hold, if any).
 */
const program = (signal: string, importHold: boolean) => `
${importHold ? `import ${JSON.stringify(hold)};` : ""}
const keepAlive = setInterval(() => {}, 60_000); // a signal's watcher alone does not keep Node running
const dispatched = new Promise((resolve) => process.once("SIGUSR2", resolve));
process.kill(process.pid, "${signal}");
process.kill(process.pid, "SIGUSR2");
await dispatched;
clearInterval(keepAlive);
console.log("loaded");
process.on("${signal}", (name) => { console.log("stopped on " + name); process.exit(0); });
`;

const outcome = (signal: string, importHold: boolean) =>
  run(process.execPath, ["--input-type=module", "-e", program(signal, importHold)]).then(
    ({ stdout }) => ({ code: 0, signal: null, stdout }),
    (error: { code: number | null; signal: string | null; stdout: string }) => ({ code: error.code, signal: error.signal, stdout: error.stdout }),
  );

describe("a stop signal that arrives before the program listens", () => {
  it.each(["SIGINT", "SIGTERM"])("%s is held, then handled by the program once it listens", async (signal) => {
    expect(await outcome(signal, true)).toEqual({ code: 0, signal: null, stdout: `loaded\nstopped on ${signal}\n` });
  });

  it("would otherwise end the program at once (Node's default)", async () => {
    expect(await outcome("SIGINT", false)).toEqual({ code: null, signal: "SIGINT", stdout: "" });
  });
});
