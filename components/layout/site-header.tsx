import Link from "next/link";
import { LiveIndicator } from "../live/live-indicator";
import { WalletButton } from "../wallet/wallet-button";
import { NavLinks } from "./nav-links";
import { SearchBox } from "./search-box";
import { ThemeToggle } from "./theme-toggle";

export function SiteHeader({ localCluster }: { localCluster: boolean }) {
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
          {localCluster && <span className="rounded bg-warn/20 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-warn">local</span>}
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
