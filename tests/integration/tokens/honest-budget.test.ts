import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { UpstreamError } from "../../../lib/tokens/index";
import { tokenApiError } from "../../../web/http/token-errors";
import { ApiError } from "../../../web/http/errors";
import { randomMints, testService } from "./helpers/service";

// A budget that cannot be met says so at once, in its own words, with the
// real wait: calls whose turn lies beyond the wait bound are refused on
// arrival, before the calls ahead of them are served; identical concurrent
// misses fold into one provider call, new mints batch up to its limit.

let standin: TokenStandin;

beforeAll(async () => {
  standin = await startTokenStandin({ limit: 2, windowMs: 1_000 });
});
afterAll(() => standin.stop());

describe("the outbound budget's refusals", () => {
  it("refuses a call whose turn is past the bound on arrival, before the calls ahead are served, with the wait", async () => {
    standin.reset();
    // 2 calls a second: one at once, then a slot a second; a wait bound of 1.5 s admits two behind the first.
    const service = testService(standin.url, { rpm: 2, budgetWindowMs: 1_000, burst: 1, maxQueueWaitMs: 1_500 });
    const settled: string[] = [];
    const calls = Array.from({ length: 6 }, (_, i) =>
      service.resolve(randomMints(100)).then(
        () => settled.push(`served ${i}`),
        (error: UpstreamError) => settled.push(`refused ${i} ${error.failure} ${error.retryAfterMs}`),
      ),
    );
    await Promise.all(calls);
    await service.close();
    const refused = settled.filter((s) => s.startsWith("refused"));
    expect(refused.length).toBeGreaterThanOrEqual(3);
    for (const line of refused) {
      const [, , failure, wait] = line.split(" ");
      expect(failure).toBe("budget");
      expect(Number(wait)).toBeGreaterThan(0);
    }
    // The ones refused on arrival were told before the second call (which waits for the next slot) was served.
    const secondServed = settled.indexOf("served 1");
    expect(secondServed).toBeGreaterThan(-1);
    expect(settled.slice(0, secondServed).filter((s) => /^refused [345] /.test(s))).toHaveLength(3);
    expect(standin.stats().overLimit).toBe(0);
  });

  it("folds identical concurrent misses into one provider call, and batches new mints up to 100 a call", async () => {
    standin.reset();
    const service = testService(standin.url, { rpm: 600, budgetWindowMs: 1_000 });
    const mints = randomMints(150);
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.resolve(mints)));
    await service.close();
    expect(answers.every((a) => a.length === 150)).toBe(true);
    expect(standin.stats().search).toBe(2); // 150 mints: a call of 100 and one of 50, for all 50 requests
  });

  it("is answered 503 in the server's words with the wait in retry-after, not as the provider's failure", () => {
    const answer = tokenApiError(new UpstreamError("budget", "outbound budget: no slot", undefined, { retryAfterMs: 12_300 })) as ApiError;
    expect(answer).toBeInstanceOf(ApiError);
    expect(answer.status).toBe(503);
    expect(answer.code).toBe("unavailable");
    expect(answer.message).toMatch(/this server's budget/);
    expect(answer.headers["retry-after"]).toBe("13");
    const provider = tokenApiError(new UpstreamError("http", "500")) as ApiError;
    expect(provider.status).toBe(502);
  });
});
