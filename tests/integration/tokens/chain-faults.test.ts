import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, type TokenStandin } from "../../../local/tokens/index";
import { ChainUnavailable } from "../../../lib/tokens/index";
import { startTestRpc, type TestRpc } from "./helpers/rpc-server";
import { PLACEHOLDER, randomMints, testService } from "./helpers/service";

// Decimals of mints the provider does not know, read from a flaky RPC node
// (the fake RPC over real HTTP fails every n-th request). The answer is exact
// or an error: never `decimals: null` for a mint that exists.

let rpc: TestRpc;
let standin: TokenStandin;

beforeAll(async () => {
  rpc = await startTestRpc();
  standin = await startTokenStandin({ limit: 100_000 });
});
afterEach(() => rpc.setFaults({ failEvery: 0 }));
afterAll(async () => {
  await rpc.stop();
  await standin.stop();
});

describe("one RPC request in five failing", () => {
  for (const how of ["http", "drop", "rpc-error"] as const) {
    it(`answers every existing mint with its decimals (${how} failures are retried)`, async () => {
      const service = testService(standin.url, { rpcUrl: rpc.url, chainBudgetMs: 3_000 });
      const mints = Array.from({ length: 40 }, (_, i) => ({ mint: rpc.addMint(i % 10), decimals: i % 10 }));
      const notMint = rpc.addSystemAccount();
      rpc.setFaults({ failEvery: 5, how });

      // One request per mint, one after another: every fifth chain read fails.
      for (const { mint, decimals } of mints) {
        expect(await service.resolve([mint])).toEqual([
          { mint, symbol: null, name: null, decimals, imageUrl: PLACEHOLDER, isVerified: null, safety: expect.objectContaining({ tokenProgram: "spl-token" }) },
        ]);
      }
      expect(rpc.failures()).toBeGreaterThanOrEqual(8);
      expect(service.stats().chainRetries).toBe(rpc.failures());
      expect(service.stats().chainErrors).toBe(0);
      // Not a mint account: the one case where null decimals are the answer.
      expect((await service.resolve([notMint]))[0]).toMatchObject({ decimals: null });
      await service.close();
    });
  }

  it("answers concurrent requests exactly too (waves of six, each wave one batched read)", async () => {
    const service = testService(standin.url, { rpcUrl: rpc.url });
    const mints = Array.from({ length: 60 }, (_, i) => ({ mint: rpc.addMint(i % 7), decimals: i % 7 }));
    rpc.setFaults({ failEvery: 5, how: "http" });
    const answers = [];
    for (let i = 0; i < mints.length; i += 6) {
      answers.push(...(await Promise.all(mints.slice(i, i + 6).map(({ mint }) => service.resolve([mint])))));
    }
    expect(answers.map((a) => a[0]!.decimals)).toEqual(mints.map((m) => m.decimals));
    expect(rpc.failures()).toBeGreaterThan(0);
    await service.close();
  });
});

describe("every RPC request failing", () => {
  it("fails with ChainUnavailable within the budget, caches nothing, and answers once the chain is back", async () => {
    const service = testService(standin.url, { rpcUrl: rpc.url, chainBudgetMs: 2_000 }); // room for three tries on a busy machine
    const mint = rpc.addMint(9);
    rpc.setFaults({ failEvery: 1, how: "http" });
    // Given up (a reader retrying without a bound would hang here until the test's timeout).
    await expect(service.resolve([mint])).rejects.toBeInstanceOf(ChainUnavailable);
    expect(rpc.failures()).toBeGreaterThanOrEqual(3); // retried with back-off, not given up at once

    rpc.setFaults({ failEvery: 0 });
    expect((await service.resolve([mint]))[0]).toMatchObject({ decimals: 9 });
    await service.close();
  });

  it("bounds a node that hangs by the budget", async () => {
    // The node answers only after 2 s: unavailable is the 700 ms budget at work (both timers run in this process, in order).
    const service = testService(standin.url, { rpcUrl: rpc.url, chainBudgetMs: 700, chainAttemptTimeoutMs: 300 });
    rpc.setFaults({ failEvery: 0, delayMs: 2_000 });
    await expect(service.resolve(randomMints(1))).rejects.toBeInstanceOf(ChainUnavailable);
    await service.close();
  });
});
