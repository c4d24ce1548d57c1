import { describe, expect, it } from "vitest";
import { reuseSeconds, RevalidationMemo } from "../../web/http/revalidation";
import { CACHE } from "../../web/http/response";
import { memoryRateLimiter } from "../../web/http/rate-limit";
import { CLIENT_ADDRESS_HEADER, createApi } from "../../web/http/api";
import { endpoint } from "../../web/http/endpoint";

// The memory behind a 304 that skips the route: how long a cache policy lets
// an answer be vouched for, and when an answer stops being vouched for.

describe("reuseSeconds", () => {
  it("is the policy's freshness for shared caches plus its stale-while-revalidate, and 0 for no-store", () => {
    expect(reuseSeconds(CACHE.list)).toBe(2 + 5);
    expect(reuseSeconds(CACHE.stats)).toBe(10);
    expect(reuseSeconds(CACHE.tokens)).toBe(300 + 600);
    expect(reuseSeconds(CACHE.none)).toBe(0);
    expect(reuseSeconds("private, max-age=60")).toBe(0);
  });
});

describe("RevalidationMemo", () => {
  const answer = { etag: '"abc"', cache: CACHE.list, route: "/v1/fills" };

  it("vouches for the tag it remembered while the feed's count stands and the policy's window lasts", () => {
    let now = 1_000_000;
    const memo = new RevalidationMemo(10, () => now);
    memo.remember("/v1/fills", answer, 7);
    expect(memo.lookup("/v1/fills", '"abc"', 7)).toEqual(answer);
    expect(memo.lookup("/v1/fills", 'W/"abc", "other"', 7)).toEqual(answer);
    expect(memo.lookup("/v1/fills", '"other"', 7)).toBeUndefined();
    expect(memo.lookup("/v1/fills?limit=1", '"abc"', 7)).toBeUndefined();
    now += 6_999;
    expect(memo.lookup("/v1/fills", '"abc"', 7)).toEqual(answer);
    now += 1;
    expect(memo.lookup("/v1/fills", '"abc"', 7)).toBeUndefined();
  });

  it("forgets an answer once the feed has announced a change", () => {
    const memo = new RevalidationMemo();
    memo.remember("/v1/stats", { etag: '"s"', cache: CACHE.stats, route: "/v1/stats" }, 3);
    expect(memo.lookup("/v1/stats", '"s"', 4)).toBeUndefined();
    expect(memo.lookup("/v1/stats", '"s"', 3)).toBeUndefined(); // gone, not merely skipped
  });

  it("keeps nothing a policy forbids storing, and drops the oldest entries beyond its capacity", () => {
    const memo = new RevalidationMemo(2);
    memo.remember("/v1/x", { etag: '"x"', cache: CACHE.none, route: "/v1/x" }, 1);
    expect(memo.lookup("/v1/x", '"x"', 1)).toBeUndefined();
    for (const key of ["/a", "/b", "/c"]) memo.remember(key, answer, 1);
    expect(memo.lookup("/a", '"abc"', 1)).toBeUndefined();
    expect(memo.lookup("/b", '"abc"', 1)).toEqual(answer);
    expect(memo.lookup("/c", '"abc"', 1)).toEqual(answer);
  });
});

describe("a revalidation answered from the memo (web/http/api.ts, before the endpoint runs)", () => {
  const WINDOW = 1_000_000_000; // far from a minute's rollover: the budget counts within one window
  const setUp = (limit: number) => {
    let changes = 1;
    let runs = 0;
    const observed: [string, number][] = [];
    const { serve } = createApi({
      limiter: (() => {
        const limiter = memoryRateLimiter({ limit, windowSeconds: 60, now: () => WINDOW });
        return () => limiter;
      })(),
      trustProxy: () => false,
      log: () => {},
      observe: (pattern, status) => observed.push([pattern, status]),
      feedChanges: () => changes,
    });
    const things = endpoint({ path: "/v1/things/[id]", cache: CACHE.list, answer: async () => (runs++, { value: { runs } }) });
    const headers = (extra: Record<string, string> = {}) => new Headers({ [CLIENT_ADDRESS_HEADER]: "192.0.2.9", ...extra });
    const get = (target: string, extra?: Record<string, string>, method = "GET") =>
      serve(things, { method, url: new URL(`http://localhost${target}`), headers: headers(extra), params: { id: "a" }, signal: new AbortController().signal });
    return { get, observed, runs: () => runs, change: () => changes++ };
  };

  it("answers 304 with the endpoint's headers, spends the budget once and counts the request under the route, without running it", async () => {
    const api = setUp(10);
    const first = await api.get("/v1/things/a?x=1");
    const etag = first.headers.etag!;
    const again = await api.get("/v1/things/a?x=1", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["cache-control"]).toBe(first.headers["cache-control"]);
    expect(again.headers["access-control-allow-origin"]).toBe("*");
    expect(Number(again.headers["ratelimit-remaining"])).toBe(Number(first.headers["ratelimit-remaining"]) - 1);
    expect(api.runs()).toBe(1);
    expect(api.observed).toEqual([["/v1/things/[id]", 200], ["/v1/things/[id]", 304]]);
  });

  it("runs the endpoint for another URL, another tag, no tag, or after a change", async () => {
    const api = setUp(10);
    const first = await api.get("/v1/things/b");
    const etag = first.headers.etag!;
    expect((await api.get("/v1/things/b?x=1", { "if-none-match": etag })).status).toBe(200);
    expect((await api.get("/v1/things/b", { "if-none-match": '"other"' })).status).toBe(200);
    expect((await api.get("/v1/things/b")).status).toBe(200);
    expect(api.runs()).toBe(4);
    api.change();
    const changed = await api.get("/v1/things/b", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(api.runs()).toBe(5);
  });

  it("answers the 429 in the API's error shape when the budget is spent, and 405 for other methods without spending it", async () => {
    const api = setUp(1);
    const first = await api.get("/v1/things/c");
    const refused = await api.get("/v1/things/c", { "if-none-match": first.headers.etag! }, "HEAD");
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe(refused.headers["ratelimit-reset"]);
    expect(JSON.parse(refused.body as string)).toMatchObject({ code: "rate_limited" });
    const other = await api.get("/v1/things/c", {}, "POST");
    expect(other.status).toBe(405);
    expect(other.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(other.headers["ratelimit-remaining"]).toBeUndefined();
  });
});
