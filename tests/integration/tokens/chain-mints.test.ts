import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, UNKNOWN_MINTS, WELL_KNOWN, type TokenStandin } from "../../../local/tokens/index";
import { ChainUnavailable, createChainMintReader } from "../../../lib/tokens/index";
import { startTestRpc, type TestRpc } from "./helpers/rpc-server";
import { PLACEHOLDER, randomMints, testService } from "./helpers/service";

// A real JSON-RPC peer over HTTP serving SPL mint accounts built with
// @solana/spl-token's layouts (the local cluster is not used here: these
// cases need accounts of every kind, created at will). One read of a mint
// account gives its decimals and its safety facts, cached together.

const decimalsOf = (read: Map<string, { decimals: number } | null>) => Object.fromEntries([...read].map(([mint, m]) => [mint, m?.decimals ?? null]));

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

describe("chain mint reader", () => {
  it("reads decimals at byte 44 of SPL Token and Token-2022 mints and nothing else, in one call", async () => {
    const spl6 = rpc.addMint(6);
    const spl0 = rpc.addMint(0);
    const t22 = rpc.addMint(9, { program: "token-2022" });
    const t22ext = rpc.addMint(2, { token2022WithExtension: true });
    const tokenAccount = rpc.addTokenAccount(spl6);
    const system = rpc.addSystemAccount();
    const [absent] = randomMints(1);
    rpc.calls.length = 0;

    const reader = createChainMintReader(rpc.url, { timeoutMs: 2_000 });
    const result = await reader.read([spl6, spl0, t22, t22ext, tokenAccount, system, absent!]);
    expect(decimalsOf(result)).toEqual({
      [spl6]: 6,
      [spl0]: 0,
      [t22]: 9,
      [t22ext]: 2,
      [tokenAccount]: null,
      [system]: null,
      [absent!]: null,
    });
    expect(rpc.calls).toEqual([7]);
    // The same read carries each mint's safety, at the slot the node answered for.
    expect(result.get(spl6)?.safety).toMatchObject({ tokenProgram: "spl-token", freezeAuthority: null, risks: ["mint_authority"], slot: 1234 });
    expect(result.get(t22ext)?.safety).toMatchObject({ tokenProgram: "token-2022", extensions: ["mintCloseAuthority"] });
  });

  it("splits more than 100 accounts into calls of 100", async () => {
    rpc.calls.length = 0;
    const reader = createChainMintReader(rpc.url, { timeoutMs: 2_000 });
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
      { mint: a, symbol: null, name: null, decimals: 4, imageUrl: PLACEHOLDER, isVerified: null, safety: expect.objectContaining({ tokenProgram: "spl-token" }) },
      { mint: b, symbol: null, name: null, decimals: 7, imageUrl: PLACEHOLDER, isVerified: null, safety: expect.objectContaining({ tokenProgram: "token-2022" }) },
      { mint: notMint, symbol: null, name: null, decimals: null, imageUrl: PLACEHOLDER, isVerified: null, safety: null },
      { mint: UNKNOWN_MINTS[1], symbol: null, name: null, decimals: null, imageUrl: PLACEHOLDER, isVerified: null, safety: null },
    ]);
    expect(rpc.calls).toEqual([5]); // every mint's account, the provider's too (its safety), in one read

    // A day later decimals alone need no chain read (they never change), though the safety facts are no longer fresh.
    service.clock.advance(24 * 3_600_000);
    expect(Object.fromEntries(await service.decimals([a, b]))).toEqual({ [a]: 4, [b]: 7 });
    expect(rpc.calls).toEqual([5]);
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

describe("safety through the service", () => {
  const USDC = WELL_KNOWN.find((t) => t.symbol === "USDC")!;
  const authority = () => Keypair.generate().publicKey;

  it("reads the provider's mints on chain too, with the provider's verified flag beside the chain's facts", async () => {
    const usdc = rpc.addMint(6, { address: USDC.mint, mint: { freezeAuthority: authority() }, program: "token" });
    const taxed = rpc.addMint(9, {
      mint: {
        mintAuthority: null,
        transferFee: { authority: authority(), older: { epoch: 0n, basisPoints: 0, maximumFee: 0n }, newer: { epoch: 5n, basisPoints: 250, maximumFee: 10n ** 12n } },
        permanentDelegate: authority(),
      },
    });
    rpc.calls.length = 0;
    const service = testService(standin.url, { rpcUrl: rpc.url });
    const [fromProvider, fromChain] = await service.resolve([usdc, taxed]);
    expect(fromProvider).toMatchObject({ symbol: "USDC", decimals: 6, isVerified: true, safety: { tokenProgram: "spl-token", risks: ["mint_authority", "freeze_authority"] } });
    expect(fromChain).toMatchObject({
      symbol: null,
      decimals: 9,
      isVerified: null,
      safety: {
        tokenProgram: "token-2022",
        mintAuthority: null,
        extensions: ["transferFeeConfig", "permanentDelegate"],
        transferFee: { newer: { epoch: "5", basisPoints: 250, maximumFee: "1000000000000" } },
        risks: ["transfer_fee", "permanent_delegate"],
      },
    });
    expect(rpc.calls).toEqual([2]);
    await service.close();
  });

  it("keeps safety facts fresh for safetyTtlMs, then reads the account again and shows what changed", async () => {
    const holder = authority();
    const mint = rpc.addMint(6, { mint: { freezeAuthority: holder } });
    rpc.calls.length = 0;
    const service = testService(standin.url, { rpcUrl: rpc.url, safetyTtlMs: 60_000 });
    expect((await service.resolve([mint]))[0]!.safety?.risks).toEqual(["mint_authority", "freeze_authority"]);

    // The authorities are revoked on chain; within the TTL the cached facts answer.
    rpc.setMint(mint, { decimals: 6 });
    service.clock.advance(30_000);
    expect((await service.resolve([mint]))[0]!.safety?.risks).toEqual(["mint_authority", "freeze_authority"]);
    expect(rpc.calls).toEqual([1]);

    service.clock.advance(31_000);
    expect((await service.resolve([mint]))[0]!.safety).toMatchObject({ mintAuthority: null, freezeAuthority: null, risks: [] });
    expect(rpc.calls).toEqual([1, 1]);
    await service.close();
  });

  it("answers stale facts, never none, when the chain is down after they expire", async () => {
    const mint = rpc.addMint(2, { mint: { permanentDelegate: authority() } });
    const service = testService(standin.url, { rpcUrl: rpc.url, safetyTtlMs: 1_000, staleWaitMs: 50, chainBudgetMs: 400 });
    const first = (await service.resolve([mint]))[0]!;
    rpc.setFaults({ failEvery: 1, how: "http" });
    service.clock.advance(5_000);
    expect((await service.resolve([mint]))[0]).toEqual(first);
    expect(service.stats().staleServed).toBe(1);
    rpc.setFaults({ failEvery: 0 });
    await service.close();
  });

  it("with the chain down and nothing cached: a mint the provider knows answers safety null, one it does not fails", async () => {
    const service = testService(standin.url, { rpcUrl: "http://127.0.0.1:9", chainBudgetMs: 400 });
    const [usdc] = await service.resolve([USDC.mint]);
    expect(usdc).toMatchObject({ symbol: "USDC", decimals: 6, isVerified: true, safety: null });
    await expect(service.resolve([USDC.mint, randomMints(1)[0]!])).rejects.toBeInstanceOf(ChainUnavailable);
    // Decimals alone need no chain read for the provider's mint.
    expect(await service.decimals([USDC.mint])).toEqual(new Map([[USDC.mint, 6]]));
    await service.close();
  });
});
