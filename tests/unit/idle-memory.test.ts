import { describe, expect, it } from "vitest";
import { IDLE_MEMORY_DEFAULTS, idleMemoryStep, startIdleMemoryRelease, type IdleMemoryState } from "../../platform/idle-memory";

const MB = 2 ** 20;
const start: IdleMemoryState = { loaded: false, quiet: 0, baseRss: 200 * MB };

/** The rules with three quiet checks, so that a run of samples stays short. */
const THREE = { ...IDLE_MEMORY_DEFAULTS, quietChecks: 3 };

/** The checks' outcomes for a run of samples, from the start state. */
function run(samples: { utilization: number; rss?: number }[], options = THREE): boolean[] {
  let state = start;
  return samples.map((sample) => {
    const step = idleMemoryStep(state, { utilization: sample.utilization, rss: sample.rss ?? 200 * MB }, options);
    state = step.state;
    return step.collect;
  });
}

const busy = { utilization: 0.9 };
const quiet = { utilization: 0.01 };
const between = { utilization: 0.1 };

describe("giving idle memory back (platform/idle-memory.ts)", () => {
  it("collects once a busy process has been quiet for three checks in a row", () => {
    expect(run([busy, quiet, quiet, quiet])).toEqual([false, false, false, true]);
  });

  it("waits 30 quiet seconds by default: a release between bursts a few seconds apart costs the next load more CPU than it saves", () => {
    const checks = 1000 / IDLE_MEMORY_DEFAULTS.checkMs;
    const afterQuiet = (seconds: number) => run([busy, ...Array.from({ length: seconds * checks }, () => quiet)], IDLE_MEMORY_DEFAULTS);
    expect(afterQuiet(29)).not.toContain(true);
    expect(afterQuiet(30).at(-1)).toBe(true);
  });

  it("never collects in a process that was never busy nor grew", () => {
    expect(run(Array.from({ length: 20 }, () => quiet))).not.toContain(true);
  });

  it("collects once per load: the next collection needs a new load", () => {
    expect(run([busy, quiet, quiet, quiet, quiet, quiet, quiet, quiet])).toEqual([false, false, false, true, false, false, false, false]);
    expect(run([busy, quiet, quiet, quiet, busy, quiet, quiet, quiet])).toEqual([false, false, false, true, false, false, false, true]);
  });

  it("starts the quiet count again at any check that is not quiet", () => {
    expect(run([busy, quiet, quiet, between, quiet, quiet, quiet])).toEqual([false, false, false, false, false, false, true]);
  });

  it("counts resident growth past the base as a load, though the process never looked busy", () => {
    const grown = 200 * MB + IDLE_MEMORY_DEFAULTS.growthBytes;
    expect(run([{ utilization: 0.01, rss: grown }, quiet, quiet])).toEqual([false, false, true]);
    expect(run([{ utilization: 0.01, rss: grown - 1 }, quiet, quiet])).toEqual([false, false, false]);
  });

  it("keeps the base it was given: the watcher moves it to the size after each collection", () => {
    const step = idleMemoryStep({ loaded: true, quiet: 2, baseRss: 123 }, { utilization: 0, rss: 999 * MB }, THREE);
    expect(step).toEqual({ collect: true, state: { loaded: false, quiet: 0, baseRss: 123 } });
  });

  it("does not watch at all where the collector is not exposed (Node started without --expose-gc)", () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(startIdleMemoryRelease(() => {})).toBeUndefined();
  });
});
