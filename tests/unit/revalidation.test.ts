import { describe, expect, it } from "vitest";
import { reuseSeconds, RevalidationMemo } from "../../web/http/revalidation";
import { CACHE } from "../../web/http/response";
import { memoryRateLimiter } from "../../web/http/rate-limit";
import { CLIENT_ADDRESS_HEADER, createRoute } from "../../web/http/route";

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

describe("a revalidation answered before routing (the web launcher's shortcut)", () => {
  const WINDOW = 1_000_000_000; // far from a minute's rollover: the budget counts within one window
  const setUp = (limit: number) => {
    let changes = 1;
    let runs = 0;
    const observed: [string, number][] = [];
    const { route, revalidateBeforeRouting } = createRoute({
      limiter: (() => {
        const limiter = memoryRateLimiter({ limit, windowSeconds: 60, now: () => WINDOW });
        return () => limiter;
      })(),
      trustProxy: () => false,
      log: () => {},
      observe: (pattern, status) => observed.push([pattern, status]),
      feedChanges: () => changes,
    });
    const handler = route("/v1/things/[id]", async () => (runs++, { body: { value: { runs } }, cache: CACHE.list }));
    const headers = (extra: Record<string, string> = {}) => new Headers({ [CLIENT_ADDRESS_HEADER]: "192.0.2.9", ...extra });
    const get = (target: string, extra?: Record<string, string>) =>
      handler.GET(new Request(`http://localhost${target}`, { headers: headers(extra) }), { params: Promise.resolve({}) });
    return { get, headers, revalidate: revalidateBeforeRouting, observed, runs: () => runs, change: () => changes++ };
  };

  it("answers 304 with the route's headers, spends the budget once and counts the request under the route", async () => {
    const api = setUp(10);
    const first = await api.get("/v1/things/a?x=1");
    const etag = first.headers.get("etag")!;
    const early = await api.revalidate("GET", "/v1/things/a?x=1", api.headers({ "if-none-match": etag }));
    expect(early?.status).toBe(304);
    expect(early?.headers.get("etag")).toBe(etag);
    expect(early?.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(early?.headers.get("access-control-allow-origin")).toBe("*");
    expect(Number(early?.headers.get("ratelimit-remaining"))).toBe(Number(first.headers.get("ratelimit-remaining")) - 1);
    expect(api.runs()).toBe(1);
    expect(api.observed).toEqual([["/v1/things/[id]", 200], ["/v1/things/[id]", 304]]);
  });

  it("leaves the request to the route, spending nothing, for another URL, another tag, no tag, a change or another method", async () => {
    const api = setUp(10);
    const first = await api.get("/v1/things/b");
    const etag = first.headers.get("etag")!;
    const tagged = api.headers({ "if-none-match": etag });
    expect(await api.revalidate("GET", "/v1/things/b?x=1", tagged)).toBeUndefined();
    expect(await api.revalidate("GET", "/v1/things/b", api.headers({ "if-none-match": '"other"' }))).toBeUndefined();
    expect(await api.revalidate("GET", "/v1/things/b", api.headers())).toBeUndefined();
    expect(await api.revalidate("POST", "/v1/things/b", tagged)).toBeUndefined();
    api.change();
    expect(await api.revalidate("GET", "/v1/things/b", tagged)).toBeUndefined();
    // Nothing above was spent: the route's next answer has one request less left than the first.
    const next = await api.get("/v1/things/b");
    expect(Number(next.headers.get("ratelimit-remaining"))).toBe(Number(first.headers.get("ratelimit-remaining")) - 1);
    expect(api.observed.map(([, status]) => status)).toEqual([200, 200]);
  });

  it("answers the 429 in the API's error shape when the budget is spent", async () => {
    const api = setUp(1);
    const first = await api.get("/v1/things/c");
    const early = await api.revalidate("HEAD", "/v1/things/c", api.headers({ "if-none-match": first.headers.get("etag")! }));
    expect(early?.status).toBe(429);
    expect(early?.headers.get("retry-after")).toBe(early?.headers.get("ratelimit-reset"));
    expect(await early?.json()).toMatchObject({ code: "rate_limited" });
  });
});
