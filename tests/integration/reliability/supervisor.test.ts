import { describe, expect, it, vi } from "vitest";
import type { Logger } from "../../../platform/log";
import { Supervisor } from "../../../scripts/start/supervisor";

// npm start's supervisor over real child processes: a part that dies is
// restarted with a doubling backoff and said so; one that keeps failing
// quickly ends in one line; stopAll ends the parts that run.

function recordingLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const record = (...args: unknown[]) => void lines.push(String(args.find((a) => typeof a === "string")));
  return { log: { warn: record, error: record, info: record } as unknown as Logger, lines };
}

describe("the supervisor of npm start's parts", () => {
  it("restarts a failing part with a doubling backoff and gives up with one line after five quick failures", async () => {
    const { log, lines } = recordingLog();
    const gaveUp = new Promise<string>((resolve) => {
      const supervisor = new Supervisor(log, resolve, 20);
      supervisor.start({ name: "worker", args: ["-e", "process.exit(3)"], env: {}, cwd: process.cwd() });
    });
    const line = await gaveUp;
    expect(lines).toEqual([
      "the worker exited with code 3; restarting it in 0.02 s (the rest keeps running)",
      "the worker exited with code 3; restarting it in 0.04 s (the rest keeps running)",
      "the worker exited with code 3; restarting it in 0.08 s (the rest keeps running)",
      "the worker exited with code 3; restarting it in 0.16 s (the rest keeps running)",
    ]);
    expect(line).toBe("the worker exited with code 3, 5 times in a row within 30 s of starting: see its log above, fix the cause, then npm start again");
  });

  it("gives up at once, without restarts, when a part exits with a code that says a restart will not help", async () => {
    const { log, lines } = recordingLog();
    const line = await new Promise<string>((resolve) => {
      const supervisor = new Supervisor(log, resolve, 20);
      supervisor.start({ name: "worker", args: ["-e", "process.exit(3)"], env: {}, cwd: process.cwd(), finalExitCodes: [2, 3] });
    });
    expect(lines).toEqual([]);
    expect(line).toBe("the worker exited with code 3, which a restart will not change: see its line above");
  });

  it("keeps the other parts running while one restarts, and stops them all on stopAll", async () => {
    const { log, lines } = recordingLog();
    const supervisor = new Supervisor(log, () => {}, 50);
    supervisor.start({ name: "web", args: ["-e", "setInterval(() => {}, 1000)"], env: {}, cwd: process.cwd() });
    supervisor.start({ name: "worker", args: ["-e", "setTimeout(() => process.exit(1), 100)"], env: {}, cwd: process.cwd() });
    // Node takes a while to start on a busy machine: wait for the worker's second start.
    const restarted = (l: string) => l.startsWith("the worker exited with code 1; restarting it in");
    await vi.waitFor(() => expect(lines.filter(restarted).length).toBeGreaterThanOrEqual(2), { timeout: 60_000, interval: 50 });
    const web = supervisor.pids().web!;
    expect(lines.some((l) => l.startsWith("the web"))).toBe(false);
    process.kill(web, 0); // still running
    await supervisor.stopAll();
    expect(() => process.kill(web, 0)).toThrow();
  });
});
