import { describe, expect, it, vi } from "vitest";
import { withDeadline } from "../../lib/resilience";
import { CLIENT_ADDRESS_HEADER, createApi } from "../../web/http/api";
import { endpoint } from "../../web/http/endpoint";
import { unlimited } from "../../web/http/rate-limit";
import { CACHE } from "../../web/http/response";

describe("a bounded wait", () => {
  it("gives the work's value or failure when it settles in time, and a coded error when it does not", async () => {
    vi.useFakeTimers();
    try {
      await expect(withDeadline(Promise.resolve(7), 1_000, "the sum")).resolves.toBe(7);
      await expect(withDeadline(Promise.reject(new Error("refused")), 1_000, "the sum")).rejects.toThrow("refused");
      const never = withDeadline(new Promise<number>(() => {}), 1_000, "the sum");
      const settled = expect(never).rejects.toMatchObject({ code: "DEADLINE_EXCEEDED", ms: 1_000, message: "the sum did not settle within 1000 ms" });
      await vi.advanceTimersByTimeAsync(1_000);
      await settled;
      expect(vi.getTimerCount()).toBe(0); // no timer outlives a settled wait
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("an endpoint that never answers", () => {
  it("gets the documented 503 with retry-after at the deadline, and one log call naming the route", async () => {
    const logged: unknown[] = [];
    const { serve } = createApi({ limiter: () => unlimited, trustProxy: () => false, log: (error) => logged.push(error), answerDeadlineMs: 1_000 });
    const stuck = endpoint({ path: "/v1/stuck", cache: CACHE.list, answer: () => new Promise(() => {}) });
    vi.useFakeTimers();
    try {
      const answer = serve(stuck, { method: "GET", url: new URL("http://localhost/v1/stuck"), headers: new Headers({ [CLIENT_ADDRESS_HEADER]: "192.0.2.9" }), params: {}, signal: new AbortController().signal });
      await vi.advanceTimersByTimeAsync(1_000);
      const { status, headers, body } = await answer;
      expect(status).toBe(503);
      expect(headers["retry-after"]).toBe("5");
      expect(JSON.parse(String(body))).toEqual({ code: "unavailable", error: "the database did not answer within 1 s; try again shortly" });
      expect(logged).toEqual([expect.objectContaining({ message: "/v1/stuck's answer did not settle within 1000 ms" })]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("cancels a stream that arrives after its request was answered, so its cursor closes", async () => {
    let cancelled = false;
    const late = new ReadableStream<string>({ cancel: () => void (cancelled = true) });
    const { serve } = createApi({ limiter: () => unlimited, trustProxy: () => false, log: () => {}, answerDeadlineMs: 1_000 });
    const slowExport = endpoint({
      path: "/v1/slow.csv",
      cache: CACHE.none,
      answer: () => new Promise((resolve) => setTimeout(() => resolve({ stream: late, headers: { "content-type": "text/csv" } }), 3_000)),
    });
    vi.useFakeTimers();
    try {
      const answer = serve(slowExport, { method: "GET", url: new URL("http://localhost/v1/slow.csv"), headers: new Headers(), params: {}, signal: new AbortController().signal });
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await answer).status).toBe(503);
      expect(cancelled).toBe(false);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(cancelled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
