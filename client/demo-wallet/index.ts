import { Keypair } from "@solana/web3.js";
import { registerWallet } from "@wallet-standard/wallet";
import { api } from "../api";
import { jsonRpc, waitConfirmed } from "../../lib/rpc/json-rpc";
import { demoFundingPlan, unpricedTokenMints } from "./funding-plan";
import { loadDemoKey, saveDemoKey } from "./stored-key";
import { DemoWallet } from "./wallet";

// The demo wallet's entry, loaded on demand by the wallet panel (never in a
// page's first load): on the local demo cluster only (client/cluster's
// demoWalletOffered decides before this loads).

export interface DemoCluster {
  rpcUrl: string;
  genesisHash: string;
}

let registered: DemoWallet | undefined;

function register(secretKey: Uint8Array, rpcUrl: string): DemoWallet {
  if (!registered) {
    registered = new DemoWallet(secretKey, rpcUrl);
    registerWallet(registered);
  }
  return registered;
}

/** Registers the wallet this browser made earlier on this chain, if any, so the adapter can reconnect it. */
export function restoreDemoWallet(cluster: DemoCluster): string | null {
  const secretKey = loadDemoKey(cluster.genesisHash);
  return secretKey ? register(secretKey, cluster.rpcUrl).address : null;
}

/**
 * Airdrops SOL (it must arrive) and the stablecoins and book tokens through the
 * local cluster's requestTokenAirdrop, waiting for all to confirm. Returns what
 * could not be funded, in words (the wallet works without it).
 */
export async function fundDemoWallet(cluster: DemoCluster, address: string): Promise<string[]> {
  const markets = await api.markets().then((m) => m.markets, () => []);
  const unpriced = unpricedTokenMints(markets);
  const tokens = unpriced.length > 0 ? await api.tokens(unpriced).then((t) => t.tokens, () => []) : [];
  const plan = demoFundingPlan(markets, new Map(tokens.map((t) => [t.mint, t.decimals])));
  const sol = await jsonRpc<string>(cluster.rpcUrl, "requestAirdrop", [address, Number(plan.lamports)]);
  const problems: string[] = [];
  const signatures = [sol];
  for (const { mint, raw } of plan.tokens) {
    try {
      signatures.push(await jsonRpc<string>(cluster.rpcUrl, "requestTokenAirdrop", [address, mint, raw.toString()]));
    } catch (error) {
      problems.push(`${mint}: ${(error as Error).message}`);
    }
  }
  await waitConfirmed(cluster.rpcUrl, signatures);
  return problems;
}

/** One click: a new key kept in this browser, funded, registered as a Wallet Standard wallet. */
export async function createDemoWallet(cluster: DemoCluster): Promise<{ address: string; problems: string[] }> {
  const existing = restoreDemoWallet(cluster);
  if (existing) return { address: existing, problems: [] };
  const keypair = Keypair.generate();
  saveDemoKey(cluster.genesisHash, keypair.secretKey);
  const problems = await fundDemoWallet(cluster, keypair.publicKey.toBase58());
  return { address: register(keypair.secretKey, cluster.rpcUrl).address, problems };
}
