/** Where the Solana Explorer finds this deployment's chain: mainnet plainly, anything else as a custom RPC. */
export interface ExplorerConfig {
  rpcUrl: string | null;
  localCluster: boolean;
}

const MAINNET = /^https:\/\/api\.mainnet(-beta)?\.solana\.com\/?$/;
const DEVNET = /^https:\/\/api\.devnet\.solana\.com\/?$/;

function clusterQuery(config: ExplorerConfig): string {
  const url = config.rpcUrl;
  if (!url || MAINNET.test(url)) return "";
  if (DEVNET.test(url)) return "?cluster=devnet";
  return `?cluster=custom&customUrl=${encodeURIComponent(url)}`;
}

export function explorerUrl(config: ExplorerConfig, kind: "address" | "tx", value: string): string {
  return `https://explorer.solana.com/${kind}/${value}${clusterQuery(config)}`;
}
