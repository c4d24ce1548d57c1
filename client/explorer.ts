import type { ClusterKind } from "./cluster";

/** What the browser knows about this deployment's chain, handed over by the root layout. */
export interface ExplorerConfig {
  /** The JSON-RPC URL browsers may use (PUBLIC_SOLANA_RPC_URL, else SOLANA_RPC_URL); null when none is configured. */
  rpcUrl: string | null;
  /** `npm start` runs the local demo cluster (LOCAL_DEMO_CLUSTER). */
  localCluster: boolean;
  /** The cluster by genesis hash (client/cluster). */
  cluster: ClusterKind;
  /** getGenesisHash of the followed chain; null when neither the database nor the RPC told it. */
  genesisHash: string | null;
  /** The offer program and the fee treasury, for transactions built in the browser (unset: trading is off). */
  programId?: string | null;
  treasury?: string | null;
}

export const DEFAULT_EXPLORER_CONFIG: ExplorerConfig = { rpcUrl: null, localCluster: false, cluster: "custom", genesisHash: null };

const MAINNET = /^https:\/\/api\.mainnet(-beta)?\.solana\.com\/?$/;
const DEVNET = /^https:\/\/api\.devnet\.solana\.com\/?$/;

/** Where the Solana Explorer finds this chain: a public cluster by name, anything else as a custom RPC. */
function clusterQuery(config: ExplorerConfig): string {
  if (config.cluster === "mainnet") return "";
  if (config.cluster === "devnet") return "?cluster=devnet";
  if (config.cluster === "testnet") return "?cluster=testnet";
  const url = config.rpcUrl;
  // The genesis hash unknown (RPC down at render): the URL is the best guess left.
  if (!url || (config.genesisHash === null && MAINNET.test(url))) return "";
  if (config.genesisHash === null && DEVNET.test(url)) return "?cluster=devnet";
  return `?cluster=custom&customUrl=${encodeURIComponent(url)}`;
}

export function explorerUrl(config: ExplorerConfig, kind: "address" | "tx", value: string): string {
  return `https://explorer.solana.com/${kind}/${value}${clusterQuery(config)}`;
}
