"use client";

import Link from "next/link";
import type { Offer } from "@/client/types";
import { Address } from "../ui/address";
import { SideBadge, StatusBadge } from "../ui/badges";
import { td, tdRight, th, thRight } from "../ui/panel";
import { EmptyState } from "../ui/states";
import { Countdown, TimeAgo } from "../ui/time";
import { FillPrice, OfferPrice, TokenAmount, TokenSymbol } from "../ui/token";
import { OfferActionsSlot } from "../trade/trade-entry";
import { type PairSummary, walletDirection, type WalletTradeRow } from "./trade-summary";

// The portfolio's tables. Each scrolls sideways inside its panel on a phone,
// so the page itself never does.

function Pair({ tokenMint, paymentMint }: { tokenMint: string; paymentMint: string }) {
  return (
    <Link href={`/book/${tokenMint}/${paymentMint}`} prefetch={false} className="font-medium hover:underline">
      <TokenSymbol mint={tokenMint} />/<TokenSymbol mint={paymentMint} />
    </Link>
  );
}

function Scroll({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    // A focusable region: keyboard users can scroll it (axe scrollable-region-focusable).
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

export function SummaryTable({ rows }: { rows: PairSummary[] }) {
  if (rows.length === 0) return <EmptyState title="No trades yet">Fills of your offers and your takes appear here.</EmptyState>;
  return (
    <Scroll label="Trades by pair">
      <table className="w-full text-sm" data-testid="portfolio-summary">
        <thead>
          <tr>
            <th className={th}>Pair</th>
            <th className={th}>You</th>
            <th className={thRight}>Trades</th>
            <th className={thRight}>Amount (token)</th>
            <th className={thRight}>Average price (payment per token)</th>
            <th className={thRight}>Value (payment)</th>
            <th className={thRight}>Fees you paid (payment)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.tokenMint}/${r.paymentMint}/${r.direction}`} className="border-t border-line" data-testid="portfolio-summary-row" data-direction={r.direction} data-token={r.tokenMint}>
              <td className={td}>
                <Pair tokenMint={r.tokenMint} paymentMint={r.paymentMint} />
              </td>
              <td className={`${td} font-medium ${r.direction === "buy" ? "text-bid" : "text-ask"}`}>{r.direction === "buy" ? "Bought" : "Sold"}</td>
              <td className={tdRight}>{r.trades}</td>
              <td className={tdRight}>
                <TokenAmount raw={r.amount.toString()} mint={r.tokenMint} showSymbol />
              </td>
              <td className={tdRight} data-testid="portfolio-average-price">
                <FillPrice fillAmount={r.amount.toString()} paymentAmount={r.value.toString()} tokenMint={r.tokenMint} paymentMint={r.paymentMint} />
              </td>
              <td className={tdRight}>
                <TokenAmount raw={r.value.toString()} mint={r.paymentMint} showSymbol />
              </td>
              <td className={tdRight}>
                <TokenAmount raw={r.fees.toString()} mint={r.paymentMint} showSymbol />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

export function OffersTable({ offers, open, label }: { offers: Offer[]; open: boolean; label: string }) {
  if (offers.length === 0) return <EmptyState title={open ? "No open offers" : "No past offers"} />;
  return (
    <Scroll label={label}>
      <table className="w-full text-sm" data-testid={open ? "portfolio-open-offers" : "portfolio-offer-history"}>
        <thead>
          <tr>
            <th className={th}>Pair</th>
            <th className={th}>Side</th>
            <th className={thRight}>Price (payment per token)</th>
            <th className={thRight}>{open ? "Remaining / size (token)" : "Filled / size (token)"}</th>
            <th className={th}>{open ? "Expires" : "Status"}</th>
            <th className={th}>Offer</th>
            {open && <th className={th}>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {offers.map((o) => (
            <tr key={o.pda} className="border-t border-line align-top" data-testid="portfolio-offer" data-offer={o.pda} data-status={o.status}>
              <td className={td}>
                <Pair tokenMint={o.tokenMint} paymentMint={o.paymentMint} />
              </td>
              <td className={td}>
                <SideBadge side={o.side} />
              </td>
              <td className={tdRight}>
                <OfferPrice price={o} tokenMint={o.tokenMint} paymentMint={o.paymentMint} />
              </td>
              <td className={tdRight}>
                <TokenAmount raw={open ? o.remainingSize : (BigInt(o.originalSize) - BigInt(o.remainingSize)).toString()} mint={o.tokenMint} /> / <TokenAmount raw={o.originalSize} mint={o.tokenMint} />
              </td>
              <td className={td}>{open ? <Countdown iso={o.expiresAt} /> : <StatusBadge status={o.status} />}</td>
              <td className={td}>
                <Address value={o.pda} href={`/offers/${o.pda}`} />
              </td>
              {open && (
                <td className={td}>
                  <OfferActionsSlot offer={o} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

export function TradesTable({ trades }: { trades: WalletTradeRow[] }) {
  if (trades.length === 0) return <EmptyState title="No trades in this view" />;
  return (
    <Scroll label="Trades">
      <table className="w-full text-sm" data-testid="portfolio-trades">
        <thead>
          <tr>
            <th className={th}>When</th>
            <th className={th}>Pair</th>
            <th className={th}>As</th>
            <th className={th}>You</th>
            <th className={thRight}>Amount (token)</th>
            <th className={thRight}>Price (payment per token)</th>
            <th className={thRight}>Value (payment)</th>
            <th className={thRight}>Fee (payment)</th>
            <th className={th}>Transaction</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((t) => {
            const direction = walletDirection(t);
            return (
              <tr key={`${t.signature}/${t.ixIndex}`} className="border-t border-line" data-testid="portfolio-trade" data-role={t.role} data-direction={direction} data-offer={t.offerPda}>
                <td className={td}>
                  <TimeAgo iso={t.blockTime} />
                </td>
                <td className={td}>
                  <Pair tokenMint={t.tokenMint} paymentMint={t.paymentMint} />
                </td>
                <td className={td}>{t.role === "both" ? "maker and taker" : t.role}</td>
                <td className={`${td} font-medium ${direction === "buy" ? "text-bid" : "text-ask"}`}>{direction === "buy" ? "Bought" : "Sold"}</td>
                <td className={tdRight}>
                  <TokenAmount raw={t.fillAmount} mint={t.tokenMint} showSymbol />
                </td>
                <td className={tdRight}>
                  <FillPrice fillAmount={t.fillAmount} paymentAmount={t.paymentAmount} tokenMint={t.tokenMint} paymentMint={t.paymentMint} />
                </td>
                <td className={tdRight}>
                  <TokenAmount raw={t.paymentAmount} mint={t.paymentMint} showSymbol />
                </td>
                <td className={tdRight}>
                  <TokenAmount raw={t.feeAmount} mint={t.paymentMint} />
                </td>
                <td className={td}>
                  <Address value={t.signature} kind="tx" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Scroll>
  );
}
