import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { until } from "../helpers/until";

// The tests' one way to wait on a condition (tests/helpers/until.ts), on fake time.

describe("until", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("resolves to the probe's first value that is neither undefined nor false", async () => {
    let asked = 0;
    const waited = until("the third answer", () => (++asked === 3 ? { asked } : asked % 2 === 0 ? false : undefined));
    await vi.advanceTimersByTimeAsync(200);
    await expect(waited).resolves.toEqual({ asked: 3 });
  });

  it("fails past its deadline, naming what it waited for and adding the detail", async () => {
    const waited = until("a port", () => undefined, { withinMs: 1_000, detail: () => "the server's output" });
    const failed = expect(waited).rejects.toThrow("timed out after 1000 ms waiting for a port:\nthe server's output");
    await vi.advanceTimersByTimeAsync(1_100);
    await failed;
  });

  it("lets a probe's error through at once, unless asked to retry; then the last error is in the failure", async () => {
    await expect(until("a server", () => Promise.reject(new Error("ECONNREFUSED")))).rejects.toThrow("ECONNREFUSED");

    let asked = 0;
    const retried = until("a server", () => (++asked < 3 ? Promise.reject(new Error(`refused ${asked}`)) : "up"), { retryErrors: true });
    await vi.advanceTimersByTimeAsync(200);
    await expect(retried).resolves.toBe("up");

    const never = until("a server", () => Promise.reject(new Error("refused")), { retryErrors: true, withinMs: 500 });
    const failed = expect(never).rejects.toThrow("timed out after 500 ms waiting for a server (last error: refused)");
    await vi.advanceTimersByTimeAsync(600);
    await failed;
  });
});
