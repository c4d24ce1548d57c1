import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTokenStandin, WELL_KNOWN, type TokenStandin } from "../../../local/tokens/index";
import { PLACEHOLDER, testService } from "./helpers/service";

// Chain decimals and safety read from the local Solana cluster (local/cluster/),
// when it is there: its mints, SPL Token and Token-2022, served over real JSON-RPC.
// The cluster is written alongside this suite; until its entry point exists
// the suite is skipped and chain-decimals.test.ts covers the reader against
// a minimal JSON-RPC peer.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const CLUSTER_ENTRY = path.join(ROOT, "local/cluster/index.ts");
const present = existsSync(CLUSTER_ENTRY);

interface LocalMint {
  address: string;
  symbol: string;
  decimals: number;
  tokenProgram: string;
  risky?: boolean;
}
interface RunningCluster {
  url?: string;
  rpcUrl?: string;
  stop?(): Promise<void>;
  close?(): Promise<void>;
}

describe.skipIf(!present)("chain decimals and safety from the local cluster", () => {
  let cluster: RunningCluster;
  let rpcUrl: string;
  let mints: LocalMint[];
  let standin: TokenStandin;

  beforeAll(async () => {
    const entry = (await import(CLUSTER_ENTRY)) as { startLocalCluster?: (options?: object) => Promise<RunningCluster> };
    const tokens = (await import(path.join(ROOT, "local/cluster/tokens.ts"))) as { ALL_LOCAL_MINTS: LocalMint[] };
    if (typeof entry.startLocalCluster !== "function") throw new Error("local/cluster/index.ts exports no startLocalCluster");
    cluster = await entry.startLocalCluster({ port: 0 });
    const url = cluster.rpcUrl ?? cluster.url;
    if (!url) throw new Error("startLocalCluster returned no rpcUrl/url");
    rpcUrl = url;
    mints = tokens.ALL_LOCAL_MINTS;
    // The stand-in is not told about them here, so every decimal must come from the chain.
    standin = await startTokenStandin({ limit: 10_000 });
  }, 120_000);
  afterAll(async () => {
    await standin?.stop();
    await (cluster?.stop ?? cluster?.close)?.call(cluster);
  });

  it("reads every local mint's decimals, Token-2022 included, in one call", async () => {
    const service = testService(standin.url, { rpcUrl });
    const tokens = await service.resolve(mints.map((m) => m.address));
    expect(tokens.map((t) => t.decimals)).toEqual(mints.map((m) => m.decimals));
    // Some local mints are real mainnet mints the stand-in knows; the local-only ones (Token-2022 among them) come from the chain.
    const fromChain = mints.filter((m) => !WELL_KNOWN.some((w) => w.mint === m.address));
    expect(fromChain.some((m) => m.tokenProgram === "token-2022")).toBe(true);
    for (const m of fromChain) {
      expect(tokens.find((t) => t.mint === m.address)).toMatchObject({ mint: m.address, symbol: null, name: null, decimals: m.decimals, imageUrl: PLACEHOLDER, isVerified: null });
    }
    expect(service.stats().chainCalls).toBe(1);
    await service.close();
  });

  it("reads each local mint's safety in the same call: the risky Token-2022 mint's freeze authority and permanent delegate", async () => {
    const service = testService(standin.url, { rpcUrl });
    const tokens = await service.resolve(mints.map((m) => m.address));
    const bySymbol = new Map(mints.map((m, i) => [m.symbol, tokens[i]!]));
    const ltt = bySymbol.get("LTT")!.safety!;
    expect(ltt).toMatchObject({ tokenProgram: "token-2022", extensions: ["mintCloseAuthority", "permanentDelegate"], risks: ["mint_authority", "freeze_authority", "permanent_delegate"] });
    // Its authority holds all three: the cluster's one mint authority.
    expect(new Set([ltt.mintAuthority, ltt.freezeAuthority, ltt.permanentDelegate]).size).toBe(1);
    // The others: SPL Token or Token-2022, minted by the cluster's faucet and nothing more.
    for (const m of mints.filter((m) => !m.risky)) {
      expect(bySymbol.get(m.symbol)!.safety).toMatchObject({ tokenProgram: m.tokenProgram, freezeAuthority: null, risks: ["mint_authority"] });
    }
    expect(service.stats().chainCalls).toBe(1);
    await service.close();
  });
});
