/**
 * Which Solana cluster this deployment follows, told apart by genesis hash
 * (an RPC URL says nothing certain: a keyed provider URL names no cluster, a
 * proxy may front any of them). Pure: the server works it out, the browser
 * receives it through ExplorerConfig.
 */
export type ClusterKind = "mainnet" | "devnet" | "testnet" | "local" | "custom";

/** getGenesisHash of the public clusters. */
export const GENESIS_HASHES = {
  mainnet: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
  devnet: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
  testnet: "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY",
} as const satisfies Record<string, string>;

const KIND_BY_GENESIS = new Map<string, ClusterKind>(Object.entries(GENESIS_HASHES).map(([kind, hash]) => [hash, kind as ClusterKind]));

/**
 * A public cluster by its genesis hash; any other chain is the local demo
 * cluster when `npm start` runs one (LOCAL_DEMO_CLUSTER), else a custom one.
 * A real cluster's hash wins over the flag: a misconfigured deployment never
 * calls mainnet "local".
 */
export function clusterKind(genesisHash: string | null, localDemoCluster: boolean): ClusterKind {
  const known = genesisHash ? KIND_BY_GENESIS.get(genesisHash) : undefined;
  if (known) return known;
  return localDemoCluster ? "local" : "custom";
}

export const CLUSTER_LABELS: Record<ClusterKind, string> = {
  mainnet: "mainnet",
  devnet: "devnet",
  testnet: "testnet",
  local: "local",
  custom: "custom",
};

/**
 * The demo wallet (a key kept in the browser, funded by airdrops) exists only
 * on the local demo cluster, and only once its genesis hash is known: an
 * unknown chain might be a real one whose RPC did not answer.
 */
export function demoWalletOffered(cluster: { kind: ClusterKind; genesisHash: string | null }): boolean {
  return cluster.kind === "local" && cluster.genesisHash !== null && !KIND_BY_GENESIS.has(cluster.genesisHash);
}
