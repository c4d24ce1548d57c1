import { performance, type EventLoopUtilization } from "node:perf_hooks";

// Gives memory back to the system once a busy process goes quiet, where V8
// no longer does it by itself. On Node 24 (V8 13.6) the memory reducer never
// starts in an idle server ("high alloc, foreground ... waiting"), so the
// pages a load freed stay resident: 369-384 MB after bench:api's load where
// Node 20 drops to about 150 (docs/benchmarks-api.md, "Memory"). A regular
// full collection frees the objects but keeps the pages; V8's last-resort
// collection (the one it runs before giving up on an allocation) compacts,
// shrinks the young generation and releases the pooled pages. It is a stop
// of the thread (about 0.1-0.3 s on the web's heap), so it runs only after
// the process has been busy or has grown, and then quiet for 30 seconds,
// once: the next needs a new load. Not sooner: after that collection the web
// answers the same requests at a third more CPU for as long as we measured
// (15 s of load and more: GC pauses explain a fifth of it), so a release
// between two bursts a few seconds apart cost more than the memory was worth
// (docs/benchmarks-api.md, session 20: 3 quiet seconds made Node 24's web
// 2x the bare server's CPU a request on the list endpoints).

/** The collector V8 exposes with --expose-gc (scripts/web.mjs gives it on Node 24 and later). */
type ExposedGc = (options: { type: "major"; flavor: "last-resort" }) => void;

export type IdleMemoryOptions = {
  /** How often the event loop's utilization is read. */
  checkMs: number;
  /** A check at or above this utilization counts as busy. */
  busyUtilization: number;
  /** A check below this utilization counts as quiet. */
  quietUtilization: number;
  /** Quiet checks in a row before the collection. */
  quietChecks: number;
  /** Resident growth since the last collection (or the start) that counts as a load too, in bytes. */
  growthBytes: number;
};

export const IDLE_MEMORY_DEFAULTS: IdleMemoryOptions = {
  checkMs: 1000,
  busyUtilization: 0.25,
  quietUtilization: 0.05,
  quietChecks: 30,
  growthBytes: 64 * 1024 * 1024,
};

/** What the watcher knows between checks. */
export type IdleMemoryState = {
  /** Busy, or grown, since the last collection. */
  loaded: boolean;
  /** Quiet checks in a row. */
  quiet: number;
  /** Resident bytes right after the last collection, or at the start. */
  baseRss: number;
};

/** One check: the next state, and whether to collect now. */
export function idleMemoryStep(
  state: IdleMemoryState,
  sample: { utilization: number; rss: number },
  options: IdleMemoryOptions = IDLE_MEMORY_DEFAULTS,
): { state: IdleMemoryState; collect: boolean } {
  const loaded = state.loaded || sample.utilization >= options.busyUtilization || sample.rss - state.baseRss >= options.growthBytes;
  const quiet = sample.utilization < options.quietUtilization ? state.quiet + 1 : 0;
  if (loaded && quiet >= options.quietChecks) return { state: { loaded: false, quiet: 0, baseRss: state.baseRss }, collect: true };
  return { state: { loaded, quiet, baseRss: state.baseRss }, collect: false };
}

export type IdleMemoryRelease = { rssBefore: number; rssAfter: number; ms: number };

/**
 * Watches this process and collects as above. Does nothing (and says so by
 * returning undefined) where the collector is not exposed. The timer does
 * not hold the process open.
 */
export function startIdleMemoryRelease(
  onRelease: (release: IdleMemoryRelease) => void,
  options: IdleMemoryOptions = IDLE_MEMORY_DEFAULTS,
): (() => void) | undefined {
  const gc = (globalThis as { gc?: ExposedGc }).gc;
  if (typeof gc !== "function") return undefined;
  let state: IdleMemoryState = { loaded: false, quiet: 0, baseRss: process.memoryUsage.rss() };
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const step = idleMemoryStep(state, { utilization: performance.eventLoopUtilization(now, last).utilization, rss: process.memoryUsage.rss() }, options);
    last = now;
    state = step.state;
    if (!step.collect) return;
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    gc({ type: "major", flavor: "last-resort" });
    const rssAfter = process.memoryUsage.rss();
    state = { ...state, baseRss: rssAfter };
    // The collection's own time is not the next check's load.
    last = performance.eventLoopUtilization();
    onRelease({ rssBefore, rssAfter, ms: performance.now() - started });
  }, options.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
