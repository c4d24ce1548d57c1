import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, UNKNOWN_MINTS, type TokenStandin } from "../../../local/tokens/index";
import { ChainUnavailable, createChainDecimalsReader } from "../../../lib/tokens/index";
import { startTestRpc, type TestRpc } from "./helpers/rpc-server";
import { PLACEHOLDER, randomMints, testService } from "./helpers/service";

// A real JSON-RPC peer over HTTP serving SPL mint accounts built with
// @solana/spl-token's layouts (the local cluster is not used here: these
// cases need accounts of every kind, created at will).

let rpc: TestRpc;
let standin: TokenStandin;

beforeAll(async () => {
  rpc = await startTestRpc();
  standin = await startTokenStandin({ limit: 10_000 });
});
afterAll(async () => {
  await rpc.stop();
  await standin.stop();
});

describe("chain decimals reader", () => {
  it("reads decimals at byte 44 of SPL Token and Token-2022 mints and nothing else, in one call", async () => {
    const spl6 = rpc.addMint(6);
    const spl0 = rpc.addMint(0);
    const t22 = rpc.addMint(9, { program: "token-2022" });
    const t22ext = rpc.addMint(2, { token2022WithExtension: true });
    const tokenAccount = rpc.addTokenAccount(spl6);
    const system = rpc.addSystemAccount();
    const [absent] = randomMints(1);
    rpc.calls.length = 0;

    const reader = createChainDecimalsReader(rpc.url, { timeoutMs: 2_000 });
    const result = await reader.read([spl6, spl0, t22, t22ext, tokenAccount, system, absent!]);
    expect(Object.fromEntries(result)).toEqual({
      [spl6]: 6,
      [spl0]: 0,
      [t22]: 9,
      [t22ext]: 2,
      [tokenAccount]: null,
      [system]: null,
      [absent!]: null,
    });
    expect(rpc.calls).toEqual([7]);
  });

  it("splits more than 100 accounts into calls of 100", async () => {
    rpc.calls.length = 0;
    const reader = createChainDecimalsReader(rpc.url, { timeoutMs: 2_000 });
    await reader.read(randomMints(150));
    expect(rpc.calls).toEqual([100, 50]);
  });
});

describe("unknown mints through the service", () => {
  it("fills decimals of mints the provider does not know from one batched chain call, and caches them for good", async () => {
    const a = rpc.addMint(4);
    const b = rpc.addMint(7, { token2022WithExtension: true });
    const notMint = rpc.addSystemAccount();
    rpc.calls.length = 0;
    const service = testService(standin.url, { rpcUrl: rpc.url });

    const tokens = await service.resolve(["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", a, b, notMint, UNKNOWN_MINTS[1]!]);
    expect(tokens).toEqual([
      expect.objectContaining({ symbol: "USDC", decimals: 6 }),
      { mint: a, symbol: null, name: null, decimals: 4, imageUrl: PLACEHOLDER },
      { mint: b, symbol: null, name: null, decimals: 7, imageUrl: PLACEHOLDER },
      { mint: notMint, symbol: null, name: null, decimals: null, imageUrl: PLACEHOLDER },
      { mint: UNKNOWN_MINTS[1], symbol: null, name: null, decimals: null, imageUrl: PLACEHOLDER },
    ]);
    expect(rpc.calls).toEqual([4]); // the provider's mint needs no chain read

    // A day later the provider is asked again (negative TTL over) but the chain is not: decimals never change.
    service.clock.advance(24 * 3_600_000);
    await service.resolve([a, b]);
    expect(rpc.calls).toEqual([4]);
    expect(service.stats().chainCalls).toBe(1);
    await service.close();
  });

  it("fails with ChainUnavailable within its budget, never null decimals, when the RPC node is unreachable", async () => {
    const service = testService(standin.url, { rpcUrl: "http://127.0.0.1:9", chainBudgetMs: 600 });
    await expect(service.resolve(randomMints(1))).rejects.toBeInstanceOf(ChainUnavailable);
    expect(service.stats().chainErrors).toBe(1);
    expect(service.stats().chainRetries).toBeGreaterThan(0);
    await service.close();
  });
});
