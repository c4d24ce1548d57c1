"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/client/api";
import { shortAddress } from "@/client/format";
import { requestWalletConnect } from "@/client/wallet-session";
import { Address } from "../ui/address";
import { PageTitle, Panel } from "../ui/panel";
import { ErrorState, TableSkeleton } from "../ui/states";
import { useWalletSession } from "../wallet/use-wallet-session";
import { OffersTable, SummaryTable, TradesTable } from "./portfolio-tables";
import { summarizeTrades, type WalletTradeRow } from "./trade-summary";

// The connected wallet's trading in one place: its offers (open and past)
// from /v1/makers/{maker}/offers and its fills as maker and as taker from
// /v1/wallets/{address}/trades, with a summary per pair. "All" first.

const FILTERS = [
  { value: "all", label: "All" },
  { value: "open", label: "Open offers" },
  { value: "history", label: "Offer history" },
  { value: "maker", label: "Trades as maker" },
  { value: "taker", label: "Trades as taker" },
] as const;
type Filter = (typeof FILTERS)[number]["value"];

const LIMIT = 100;
const REFRESH_MS = 10_000;

export function PortfolioView() {
  const session = useWalletSession();
  if (session.status !== "connected") {
    return (
      <div data-testid="portfolio">
        <PageTitle sub="Your open offers, offer history and trades as maker and taker.">Portfolio</PageTitle>
        <Panel>
          <div className="space-y-3 p-6 text-sm">
            <p>{session.status === "connecting" ? "Connecting the wallet…" : "Connect a wallet to see its portfolio."}</p>
            <button type="button" className="rounded-lg bg-accent px-4 py-2 font-medium text-on-accent" onClick={requestWalletConnect} data-testid="portfolio-connect">
              Connect wallet
            </button>
          </div>
        </Panel>
      </div>
    );
  }
  return <WalletPortfolio address={session.wallet.address} />;
}

function WalletPortfolio({ address }: { address: string }) {
  const [filter, setFilter] = useState<Filter>("all");
  const role = filter === "maker" || filter === "taker" ? filter : "any";
  const offers = useQuery({
    queryKey: ["portfolio-offers", address],
    queryFn: ({ signal }) => api.makerOffers(address, { limit: LIMIT }, signal),
    refetchInterval: REFRESH_MS,
  });
  const trades = useQuery({
    queryKey: ["portfolio-trades", address, role],
    queryFn: ({ signal }) => api.walletTrades(address, { role, limit: LIMIT }, signal),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const all = offers.data?.offers ?? [];
  const open = all.filter((o) => o.status === "open");
  const past = all.filter((o) => o.status !== "open");
  const rows = (trades.data?.trades ?? []) as WalletTradeRow[];
  const show = (f: Filter) => filter === "all" || filter === f;
  const showTrades = filter === "all" || filter === "maker" || filter === "taker";

  return (
    <div className="space-y-4" data-testid="portfolio" data-wallet={address}>
      <PageTitle
        sub={
          <span className="inline-flex flex-wrap items-center gap-1">
            Wallet <Address value={address} href={`/makers/${address}`} />
          </span>
        }
      >
        Portfolio
      </PageTitle>
      <div role="group" aria-label="Show" className="flex flex-wrap gap-1" data-testid="portfolio-filter" data-value={filter}>
        {FILTERS.map((f) => (
          <button
            key={f.value}
            type="button"
            aria-pressed={filter === f.value}
            onClick={() => setFilter(f.value)}
            className={`rounded-lg border px-3 py-1.5 text-sm font-medium ${filter === f.value ? "border-accent bg-accent text-on-accent" : "border-line hover:bg-raised"}`}
            data-testid={`portfolio-filter-${f.value}`}
          >
            {f.label}
          </button>
        ))}
      </div>
      {showTrades && (
        <Panel title={filter === "all" ? "Trades by pair" : `Trades by pair, as ${filter}`} id="portfolio-summary">
          {trades.isError ? <ErrorState message={String(trades.error)} /> : trades.data ? <SummaryTable rows={summarizeTrades(rows)} /> : <TableSkeleton rows={3} label="Loading trades" />}
        </Panel>
      )}
      {show("open") && (
        <Panel title={`Open offers${offers.data ? ` (${open.length})` : ""}`} id="portfolio-open">
          {offers.isError ? <ErrorState message={String(offers.error)} /> : offers.data ? <OffersTable offers={open} open label="Open offers" /> : <TableSkeleton rows={3} label="Loading offers" />}
        </Panel>
      )}
      {show("history") && (
        <Panel title="Offer history" id="portfolio-history">
          {offers.isError ? <ErrorState message={String(offers.error)} /> : offers.data ? <OffersTable offers={past} open={false} label="Offer history" /> : <TableSkeleton rows={3} label="Loading offers" />}
        </Panel>
      )}
      {showTrades && (
        <Panel title={filter === "all" ? "Trades as maker and taker" : `Trades as ${filter}`} id="portfolio-trades">
          {trades.isError ? <ErrorState message={String(trades.error)} /> : trades.data ? <TradesTable trades={rows} /> : <TableSkeleton rows={3} label="Loading trades" />}
        </Panel>
      )}
      <p className="text-xs text-muted">
        The newest {LIMIT} offers and {LIMIT} trades of {shortAddress(address)}; the fee is paid by the side that sells tokens (it comes out of the payment that side receives).
      </p>
    </div>
  );
}
