import { describe, expect, it } from "vitest";
import { reuseSeconds, RevalidationMemo } from "../../lib/http/revalidation";
import { CACHE } from "../../lib/http/response";

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
  const answer = { etag: '"abc"', cache: CACHE.list };

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
    memo.remember("/v1/stats", { etag: '"s"', cache: CACHE.stats }, 3);
    expect(memo.lookup("/v1/stats", '"s"', 4)).toBeUndefined();
    expect(memo.lookup("/v1/stats", '"s"', 3)).toBeUndefined(); // gone, not merely skipped
  });

  it("keeps nothing a policy forbids storing, and drops the oldest entries beyond its capacity", () => {
    const memo = new RevalidationMemo(2);
    memo.remember("/v1/x", { etag: '"x"', cache: CACHE.none }, 1);
    expect(memo.lookup("/v1/x", '"x"', 1)).toBeUndefined();
    for (const key of ["/a", "/b", "/c"]) memo.remember(key, answer, 1);
    expect(memo.lookup("/a", '"abc"', 1)).toBeUndefined();
    expect(memo.lookup("/b", '"abc"', 1)).toEqual(answer);
    expect(memo.lookup("/c", '"abc"', 1)).toEqual(answer);
  });
});
