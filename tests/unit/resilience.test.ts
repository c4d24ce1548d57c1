import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  createReportGate,
  FULL_JITTER,
  HALF_JITTER,
  jitterAround,
  rateLimitDelayMs,
  retryAfterMs,
  retryWithin,
  sleep,
  throttledReport,
  type BackoffPolicy,
} from "../../lib/resilience";
import { createOutageLog } from "../../worker/outage";

// The random factor's extremes: Math.random() is in [0, 1).
const LOWEST = () => 0;
const HIGHEST = () => 1 - Number.EPSILON;

describe("back-off", () => {
  const bounds = (policy: BackoffPolicy, attempt: number) => [backoffDelay(policy, attempt, LOWEST), backoffDelay(policy, attempt, HIGHEST)];

  it("doubles from the base up to the cap, exactly when there is no jitter", () => {
    const policy = { baseMs: 500, maxMs: 30_000 };
    expect([0, 1, 2, 5, 6, 7, 100].map((n) => backoffDelay(policy, n))).toEqual([500, 1_000, 2_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("with full jitter waits anywhere from nothing to the capped wait", () => {
    const policy = { baseMs: 250, maxMs: 30_000, jitter: FULL_JITTER };
    for (const [attempt, top] of [[0, 250], [3, 2_000], [7, 30_000], [10_000, 30_000]] as const) {
      const [low, high] = bounds(policy, attempt);
      expect(low).toBe(0);
      expect(high).toBeLessThanOrEqual(top);
      expect(high).toBeGreaterThan(top * 0.999);
    }
  });

  it("with half jitter keeps at least half the wait; around a value, stays within the fraction either side", () => {
    expect(bounds({ baseMs: 50, maxMs: 1_000, jitter: HALF_JITTER }, 2)).toEqual([100, expect.closeTo(200, 6)]);
    expect(bounds({ baseMs: 500, maxMs: 30_000, jitter: jitterAround(0.2) }, 10)).toEqual([24_000, expect.closeTo(36_000, 6)]);
  });

  it("never waits less than the floor, jitter or not", () => {
    const policy = { baseMs: 250, maxMs: 8_000, minMs: 500, jitter: FULL_JITTER };
    expect(bounds(policy, 1)).toEqual([500, expect.closeTo(500, 6)]);
    expect(bounds(policy, 9)).toEqual([500, expect.closeTo(8_000, 6)]);
  });

  it("stays finite and within bounds for any attempt, with the real random", () => {
    const policy = { baseMs: 250, maxMs: 30_000, jitter: FULL_JITTER };
    for (let attempt = 0; attempt < 2_000; attempt += 7) {
      const delay = backoffDelay(policy, attempt);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(30_000);
    }
  });
});

describe("a 429's wait", () => {
  const at = Date.parse("2025-10-01T12:00:00Z");
  const h = (init: Record<string, string>) => new Headers(init);

  it("reads retry-after as delay-seconds or as an HTTP date", () => {
    expect(retryAfterMs("7", at)).toBe(7_000);
    expect(retryAfterMs("0", at)).toBe(0);
    expect(retryAfterMs(new Date(at + 12_000).toUTCString(), at)).toBe(12_000);
    expect(retryAfterMs("Wed, 01 Oct 2025 12:00:30 GMT", at)).toBe(30_000);
    expect(retryAfterMs(new Date(at - 5_000).toUTCString(), at)).toBe(0); // a date already past: no wait
    expect(retryAfterMs("soon", at)).toBeUndefined();
    expect(retryAfterMs("", at)).toBeUndefined();
    expect(retryAfterMs(null, at)).toBeUndefined();
  });

  it("reads x-ratelimit-reset as delta, epoch s or epoch ms; the longest of the two headers wins", () => {
    expect(rateLimitDelayMs(h({ "retry-after": "7" }), at)).toBe(7_000);
    expect(rateLimitDelayMs(h({ "x-ratelimit-reset": "20" }), at)).toBe(20_000);
    expect(rateLimitDelayMs(h({ "x-ratelimit-reset": String(at / 1000 + 30) }), at)).toBe(30_000);
    expect(rateLimitDelayMs(h({ "x-ratelimit-reset": String(at + 40_000) }), at)).toBe(40_000);
    expect(rateLimitDelayMs(h({ "retry-after": "5", "x-ratelimit-reset": "9" }), at)).toBe(9_000);
    expect(rateLimitDelayMs(h({ "retry-after": "soon" }), at)).toBeUndefined();
    expect(rateLimitDelayMs(h({}), at)).toBeUndefined();
  });
});

/** A clock the test moves. */
function testClock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe("a report once per interval", () => {
  it("lets the first occurrence through, holds back the rest of the interval, then says how many it held", () => {
    const clock = testClock();
    const gate = createReportGate(30_000, clock.now);
    expect(gate.due()).toBe(0);
    clock.advance(10_000);
    expect(gate.due()).toBeNull();
    clock.advance(19_999);
    expect(gate.due()).toBeNull();
    clock.advance(1);
    expect(gate.due()).toBe(2);
    expect(gate.due()).toBeNull();
    gate.reopen();
    expect(gate.due()).toBe(1); // news again, with what was held since
  });

  it("throttles each context on its own", () => {
    const clock = testClock();
    const reports: [string, number][] = [];
    const report = throttledReport<"redis" | "provider">(30_000, (_error, context, suppressed) => reports.push([context, suppressed]), clock.now);
    report(new Error("down"), "redis");
    report(new Error("down"), "redis");
    report(new Error("down"), "provider");
    clock.advance(30_000);
    report(new Error("down"), "redis");
    expect(reports).toEqual([["redis", 0], ["provider", 0], ["redis", 1]]);
  });

  it("tells an outage once when it starts, once per interval with the count, and once when it ends", () => {
    const clock = testClock();
    const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const record = (level: string) => (fields: Record<string, unknown>, message: string) => lines.push({ level, fields, message });
    const log = { warn: record("warn"), info: record("info") } as unknown as Logger;
    const outage = createOutageLog(log, "the database", 30_000, clock.now);
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

    outage.failed(refused);
    for (let i = 0; i < 9; i++) {
      clock.advance(1_000);
      outage.failed(refused);
    }
    expect(outage.failing).toBe(true);
    expect(lines.map((l) => [l.level, l.fields.failures])).toEqual([["warn", 1]]);
    clock.advance(21_000);
    outage.failed(refused);
    expect(lines.at(-1)).toMatchObject({ level: "warn", fields: { failures: 10, failingForSeconds: 30 } });
    expect(lines.at(-1)!.message).toMatch(/^the database failing: .*; retrying \(10 failures since the last report\)$/);
    clock.advance(2_000);
    outage.ok();
    expect(lines.at(-1)).toMatchObject({ level: "info", fields: { failures: 11, afterSeconds: 32 }, message: "the database answering again" });
    expect(outage.failing).toBe(false);
    // The next outage is news at once.
    outage.failed(refused);
    expect(lines.at(-1)).toMatchObject({ level: "warn", fields: { failures: 1 } });
  });

  it("ends a blip's warning with its recovery, and keeps the blips after it within the interval to themselves", () => {
    const clock = testClock();
    const lines: string[] = [];
    const log = { warn: (_: unknown, m: string) => lines.push(m), info: (_: unknown, m: string) => lines.push(m) } as unknown as Logger;
    const outage = createOutageLog(log, "the RPC", 30_000, clock.now);
    outage.failed(new Error("timeout"));
    clock.advance(200);
    outage.ok();
    expect(lines).toEqual(["the RPC failing: timeout; retrying (1 failure since the last report)", "the RPC answering again"]);
    // A dependency failing a call now and then: the next blips within the interval add no line.
    for (let i = 0; i < 5; i++) {
      clock.advance(1_000);
      outage.failed(new Error("timeout"));
      clock.advance(100);
      outage.ok();
    }
    expect(lines).toHaveLength(2);
    clock.advance(30_000);
    outage.failed(new Error("timeout"));
    expect(lines.at(-1)).toBe("the RPC failing: timeout; retrying (6 failures since the last report)");
  });
});

describe("sleep", () => {
  it("ends at once when its signal aborts, before or during the wait", async () => {
    await sleep(60_000, AbortSignal.abort());
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe("retrying within a deadline", () => {
  it("retries until the attempt succeeds, giving each attempt its cap", async () => {
    const clock = testClock();
    const given: number[] = [];
    const retried: number[] = [];
    let calls = 0;
    const result = await retryWithin(
      async (timeoutMs) => {
        given.push(timeoutMs);
        if (++calls < 3) throw new Error("not yet");
        return "answer";
      },
      { deadlineAt: clock.now() + 10_000, attemptTimeoutMs: 1_500, baseDelayMs: 1, maxDelayMs: 1, now: clock.now, onRetry: (_, n) => retried.push(n) },
    );
    expect(result).toBe("answer");
    expect(given).toEqual([1_500, 1_500, 1_500]);
    expect(retried).toEqual([1, 2]);
  });

  it("rethrows the last failure when no time is left for another try", async () => {
    const clock = testClock();
    const failure = new Error("still down");
    await expect(
      retryWithin(async () => Promise.reject(failure), { deadlineAt: clock.now() + 40, attemptTimeoutMs: 1_000, baseDelayMs: 100, now: clock.now }),
    ).rejects.toBe(failure);
  });
});
