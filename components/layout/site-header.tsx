import Link from "next/link";
import { CLUSTER_LABELS, type ClusterKind } from "@/client/cluster";
import { LiveIndicator } from "../live/live-indicator";
import { WalletButton } from "../wallet/wallet-button";
import { NavLinks } from "./nav-links";
import { SearchBox } from "./search-box";
import { ThemeToggle } from "./theme-toggle";

const LABEL_STYLE: Record<ClusterKind, string> = {
  mainnet: "bg-bid/15 text-bid",
  devnet: "bg-accent/15 text-accent",
  testnet: "bg-accent/15 text-accent",
  local: "bg-warn/20 text-warn",
  custom: "bg-raised text-muted",
};

/** The cluster this explorer follows (by genesis hash), beside the name: a trader always sees which chain they act on. */
function ClusterLabel({ cluster }: { cluster: ClusterKind }) {
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-[10px] font-semibold uppercase ${LABEL_STYLE[cluster]}`}
      data-testid="cluster-label"
      data-cluster={cluster}
      title={`Solana cluster: ${CLUSTER_LABELS[cluster]}`}
    >
      {CLUSTER_LABELS[cluster]}
    </span>
  );
}

export function SiteHeader({ cluster }: { cluster: ClusterKind }) {
  const localCluster = cluster === "local";
  return (
    <header className="sticky top-0 z-20 border-b border-line bg-surface/85 backdrop-blur">
      {localCluster && (
        <div className="bg-warn/15 px-4 py-1 text-center text-xs font-medium text-warn" role="note" data-testid="local-cluster-banner">
          Local demo cluster: simulated offers and fills on a local Solana validator, not mainnet.
        </div>
      )}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Link href="/" className="order-1 flex items-center gap-2 font-semibold tracking-tight">
          <svg viewBox="0 0 24 24" className="h-6 w-6 text-accent" fill="currentColor" aria-hidden>
            <rect x="3" y="4" width="8" height="3" rx="1" />
            <rect x="3" y="10" width="12" height="3" rx="1" opacity=".7" />
            <rect x="3" y="16" width="18" height="3" rx="1" opacity=".45" />
          </svg>
          <span>Offer Book</span>
          <ClusterLabel cluster={cluster} />
        </Link>
        <NavLinks />
        <SearchBox className="order-4 w-full md:order-3 md:ml-auto md:w-80" />
        <div className="order-2 ml-auto flex items-center gap-2 md:order-4 md:ml-0">
          <LiveIndicator />
          <ThemeToggle />
          <WalletButton />
        </div>
      </div>
    </header>
  );
}
