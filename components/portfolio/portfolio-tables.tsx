"use client";

import type { Offer } from "@/client/types";
import { fillColumns } from "../fills/fill-columns";
import { offerColumns } from "../offers/offer-columns";
import { DataTable, type Column } from "../ui/data-table";
import { PairLink } from "../ui/pair-link";
import { EmptyState } from "../ui/states";
import { FillPrice, TokenAmount } from "../ui/token";
import { type PairSummary, walletDirection, type WalletTradeRow } from "./trade-summary";

// The portfolio's tables. Each scrolls sideways inside its panel on a phone,
// so the page itself never does.

function Scroll({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    // A focusable region: keyboard users can scroll it (axe scrollable-region-focusable).
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

const directionWord = (direction: "buy" | "sell") => (direction === "buy" ? "Bought" : "Sold");
const directionClass = (direction: "buy" | "sell") => `font-medium ${direction === "buy" ? "text-bid" : "text-ask"}`;

const SUMMARY_COLUMNS: Column<PairSummary>[] = [
  { header: "Pair", cell: (r) => <PairLink tokenMint={r.tokenMint} paymentMint={r.paymentMint} /> },
  { header: "You", cell: (r) => <span className={directionClass(r.direction)}>{directionWord(r.direction)}</span> },
  { header: "Trades", numeric: true, cell: (r) => r.trades },
  { header: "Amount (token)", numeric: true, cell: (r) => <TokenAmount raw={r.amount.toString()} mint={r.tokenMint} showSymbol /> },
  {
    header: "Average price (payment per token)",
    numeric: true,
    id: "average-price",
    cell: (r) => (
      <span data-testid="portfolio-average-price">
        <FillPrice fillAmount={r.amount.toString()} paymentAmount={r.value.toString()} tokenMint={r.tokenMint} paymentMint={r.paymentMint} />
      </span>
    ),
  },
  { header: "Value (payment)", numeric: true, cell: (r) => <TokenAmount raw={r.value.toString()} mint={r.paymentMint} showSymbol /> },
  { header: "Fees you paid (payment)", numeric: true, cell: (r) => <TokenAmount raw={r.fees.toString()} mint={r.paymentMint} showSymbol /> },
];

export function SummaryTable({ rows }: { rows: PairSummary[] }) {
  if (rows.length === 0) return <EmptyState title="No trades yet">Fills of your offers and your takes appear here.</EmptyState>;
  return (
    <Scroll label="Trades by pair">
      <DataTable
        testId="portfolio-summary"
        columns={SUMMARY_COLUMNS}
        rows={rows}
        rowKey={(r) => `${r.tokenMint}/${r.paymentMint}/${r.direction}`}
        rowProps={(r) => ({ "data-testid": "portfolio-summary-row", "data-direction": r.direction, "data-token": r.tokenMint })}
      />
    </Scroll>
  );
}

const OPEN_COLUMNS = [
  offerColumns.pair(),
  offerColumns.side(),
  offerColumns.price("Price (payment per token)"),
  offerColumns.ofSize("remaining", "Remaining / size (token)"),
  offerColumns.expires(),
  offerColumns.address(),
  offerColumns.actions(),
];
const PAST_COLUMNS = [
  offerColumns.pair(),
  offerColumns.side(),
  offerColumns.price("Price (payment per token)"),
  offerColumns.ofSize("filled", "Filled / size (token)"),
  offerColumns.status(),
  offerColumns.address(),
];

export function OffersTable({ offers, open, label }: { offers: Offer[]; open: boolean; label: string }) {
  if (offers.length === 0) return <EmptyState title={open ? "No open offers" : "No past offers"} />;
  return (
    <Scroll label={label}>
      <DataTable
        testId={open ? "portfolio-open-offers" : "portfolio-offer-history"}
        columns={open ? OPEN_COLUMNS : PAST_COLUMNS}
        rows={offers}
        rowKey={(o) => o.pda}
        rowProps={(o) => ({ "data-testid": "portfolio-offer", "data-offer": o.pda, "data-status": o.status })}
      />
    </Scroll>
  );
}

const TRADE_COLUMNS: Column<WalletTradeRow>[] = [
  fillColumns.time("When"),
  fillColumns.pair(),
  { header: "As", cell: (t) => (t.role === "both" ? "maker and taker" : t.role) },
  { header: "You", cell: (t) => <span className={directionClass(walletDirection(t))}>{directionWord(walletDirection(t))}</span> },
  fillColumns.amount("Amount (token)", true),
  fillColumns.price("Price (payment per token)"),
  fillColumns.total("Value (payment)"),
  fillColumns.fee("Fee (payment)"),
  fillColumns.tx("Transaction"),
];

export function TradesTable({ trades }: { trades: WalletTradeRow[] }) {
  if (trades.length === 0) return <EmptyState title="No trades in this view" />;
  return (
    <Scroll label="Trades">
      <DataTable
        testId="portfolio-trades"
        columns={TRADE_COLUMNS}
        rows={trades}
        rowKey={(t) => `${t.signature}/${t.ixIndex}`}
        rowProps={(t) => ({ "data-testid": "portfolio-trade", "data-role": t.role, "data-direction": walletDirection(t), "data-offer": t.offerPda })}
      />
    </Scroll>
  );
}
