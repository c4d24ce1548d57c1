import { describe, expect, it } from "vitest";
import { parseWrk } from "../../bench/wrk";

// bench:scale's cache drill judges the proxy's p99 on wrk's report: a
// misread unit would turn 870 µs into 870 ms, or 2 s into 2 ms.

const report = (p50: string, p99: string, extra = "") => `Running 30s test @ http://127.0.0.1:8080/v1/offers
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.82ms    3.71ms  37.47ms   89.74%
    Req/Sec     1.21k   329.99     1.71k    70.00%
  Latency Distribution
     50%    ${p50}
     75%    4.80ms
     90%    7.67ms
     99%    ${p99}
  2430 requests in 2.01s, 2.84MB read
${extra}Requests/sec:   1207.66
Transfer/sec:      1.41MB
`;

describe("wrk's --latency report", () => {
  it("reads the request count, the rate and the p50 and p99 in milliseconds", () => {
    expect(parseWrk(report("2.55ms", "20.52ms"))).toEqual({ requests: 2430, rps: 1207.66, p50: 2.55, p99: 20.52, errors: 0 });
  });

  it("converts microseconds and seconds", () => {
    const result = parseWrk(report("870.00us", "1.20s"));
    expect(result.p50).toBeCloseTo(0.87, 6);
    expect(result.p99).toBe(1200);
  });

  it("counts socket errors and non-2xx answers as errors", () => {
    const extra = "  Socket errors: connect 0, read 2, write 0, timeout 3\n  Non-2xx or 3xx responses: 5\n";
    expect(parseWrk(report("1ms", "2ms", extra)).errors).toBe(10);
  });

  it("refuses a report without a latency distribution", () => {
    expect(() => parseWrk("Running 1s test @ http://x/\n  0 requests in 1.00s\nRequests/sec: 0\n")).toThrow(/50% latency/);
  });
});
