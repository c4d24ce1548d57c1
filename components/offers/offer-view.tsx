"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { offerTotal } from "@/lib/program/pricing";
import { utcTime } from "@/client/format";
import type { Fill, Offer, OfferFill, OfferFillList } from "@/client/types";
import { useOffer, useOfferFills } from "../data/queries";
import { useLiveFeed } from "../live/live-provider";
import { useToken } from "../data/tokens";
import { LiveFillsTable } from "../fills/fills-table";
import { Address } from "../ui/address";
import { SideBadge, StatusBadge } from "../ui/badges";
import { Panel } from "../ui/panel";
import { SideRule } from "../ui/side-rule";
import { StaleNote } from "../ui/states";
import { Countdown, TimeAgo } from "../ui/time";
import { OfferPrice, TokenAmount, TokenLabel, TokenSymbol } from "../ui/token";
import { OfferActionsSlot, TakeButton } from "../trade/trade-entry";

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col gap-1 border-b border-line px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid={testId}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="min-w-0 text-sm font-medium sm:text-right">{children}</dd>
    </div>
  );
}

/** Filled share of the original size, to two decimals, from integers. */
function filledPercent(offer: Offer): { text: string; width: number } {
  const original = BigInt(offer.originalSize);
  const filled = original - BigInt(offer.remainingSize);
  const basis = original === 0n ? 0n : (filled * 10_000n) / original;
  return { text: `${(basis / 100n).toString()}.${(basis % 100n).toString().padStart(2, "0")}%`, width: Number(basis) / 100 };
}

function FillProgress({ offer }: { offer: Offer }) {
  const p = filledPercent(offer);
  return (
    <div className="px-4 py-4">
      <div className="mb-2 flex items-baseline justify-between text-sm">
        <span className="text-muted">Filled</span>
        <span className="font-semibold tabular" data-testid="filled-percent">
          {p.text}
        </span>
      </div>
      <div className="h-2 overflow-hidden rounded-full bg-raised" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={p.width} aria-label="Filled">
        <div className={`h-full rounded-full ${offer.side === "sell" ? "bg-ask" : "bg-bid"}`} style={{ width: `${p.width}%` }} />
      </div>
      <p className="mt-2 text-xs text-muted">
        <TokenAmount raw={(BigInt(offer.originalSize) - BigInt(offer.remainingSize)).toString()} mint={offer.tokenMint} showSymbol /> of{" "}
        <TokenAmount raw={offer.originalSize} mint={offer.tokenMint} showSymbol />
      </p>
    </div>
  );
}

/** An offer's fill as a fill row, made once per row object: a live fill draws its own row, not the others (React.memo). */
const fillRows = new WeakMap<OfferFill, Fill>();
function asFill(f: OfferFill, offer: Offer): Fill {
  const kept = fillRows.get(f);
  if (kept) return kept;
  const row: Fill = { ...f, offerPda: offer.pda, maker: offer.maker, tokenMint: offer.tokenMint, paymentMint: offer.paymentMint, side: offer.side };
  fillRows.set(f, row);
  return row;
}

export function OfferView({ initial, initialFills, feedAfter }: { initial: Offer; initialFills: OfferFillList; feedAfter: string | null }) {
  useLiveFeed({ offerPda: initial.pda }, feedAfter);
  const { data: offer = initial, error } = useOffer(initial.pda, initial);
  const { data: fillData = initialFills } = useOfferFills(initial.pda, initialFills);
  const token = useToken(offer.tokenMint);
  const fills: Fill[] = fillData.fills.map((f) => asFill(f, offer));
  const total = offerTotal(BigInt(offer.originalSize), BigInt(offer.pricePerToken), offer.priceScale).toString();
  // Worded for the taker: a sell offer is bought from, a buy offer sold into.
  const takeLabel = `${offer.side === "sell" ? "Buy" : "Sell"} ${token?.symbol ?? "token"}`;
  const remainingValue = offerTotal(BigInt(offer.remainingSize), BigInt(offer.pricePerToken), offer.priceScale).toString();

  return (
    <div className="space-y-6 pb-20 sm:pb-0">
      <div className="flex flex-wrap items-center gap-3">
        <TokenLabel mint={offer.tokenMint} size={40} />
        <div className="min-w-0 [overflow-wrap:anywhere]">
          <h1 className="flex min-w-0 flex-wrap items-center gap-2 text-xl font-semibold tracking-tight [overflow-wrap:anywhere]">
            {offer.side === "sell" ? "Sell" : "Buy"} {token?.symbol ?? "token"} for <TokenSymbol mint={offer.paymentMint} />
            <SideBadge side={offer.side} />
            <StatusBadge status={offer.status} />
          </h1>
          <p className="text-sm text-muted">
            Offer <Address value={offer.pda} full />
          </p>
        </div>
        <Link href={`/book/${offer.tokenMint}/${offer.paymentMint}`} className="ml-auto rounded-lg border border-line px-3 py-1.5 text-sm hover:bg-raised">
          Open the book
        </Link>
      </div>
      <StaleNote error={error} />
      <div className="grid gap-6 lg:grid-cols-3">
        <Panel title="Terms" className="lg:col-span-2">
          <dl>
            <Field label="Price" testId="offer-price">
              <OfferPrice price={offer} tokenMint={offer.tokenMint} paymentMint={offer.paymentMint} /> <TokenSymbol mint={offer.paymentMint} /> per {token?.symbol ?? "token"}
            </Field>
            <Field label="Size" testId="offer-size">
              <TokenAmount raw={offer.originalSize} mint={offer.tokenMint} showSymbol />
            </Field>
            <Field label="Remaining" testId="offer-remaining">
              <TokenAmount raw={offer.remainingSize} mint={offer.tokenMint} showSymbol />
            </Field>
            <Field label="Total value" testId="offer-total">
              <TokenAmount raw={total} mint={offer.paymentMint} showSymbol />
              <span className="ml-2 text-xs text-muted">
                (<TokenAmount raw={remainingValue} mint={offer.paymentMint} /> remaining)
              </span>
            </Field>
            <Field label="Minimum fill" testId="offer-min-fill">
              <TokenAmount raw={offer.minFill} mint={offer.tokenMint} showSymbol />
            </Field>
            <Field label="Maker">
              <Address value={offer.maker} href={`/makers/${offer.maker}`} />
            </Field>
            <Field label="Token mint">
              <Address value={offer.tokenMint} />
            </Field>
            <Field label="Payment mint">
              <Address value={offer.paymentMint} />
            </Field>
            <Field label="Created">
              <span title={utcTime(offer.createdAt)}>
                <TimeAgo iso={offer.createdAt} />
              </span>
            </Field>
            <Field label={offer.status === "open" ? "Expires" : "Expiry"} testId="offer-expiry">
              {offer.status === "open" ? <Countdown iso={offer.expiresAt} /> : <span>{utcTime(offer.expiresAt)}</span>}
            </Field>
            <Field label="Nonce">
              <span className="font-mono">{offer.nonce}</span>
            </Field>
            <Field label="Raw price">
              <span className="font-mono" title="pricePerToken / 10^priceScale raw payment units per raw token unit">
                {offer.pricePerToken} / 10^{offer.priceScale}
              </span>
            </Field>
            <Field label="Last seen at slot">
              <span className="font-mono">{offer.lastSlot}</span>
            </Field>
            <Field label="Indexed">
              <TimeAgo iso={offer.indexedAt} />
            </Field>
          </dl>
        </Panel>
        <div className="space-y-6">
          <Panel title="Progress">
            <FillProgress offer={offer} />
          </Panel>
          <Panel title="Trade">
            <div className="flex flex-wrap items-center gap-2 px-4 py-4" data-testid="offer-trade">
              <TakeButton offer={offer} className="rounded-lg bg-accent px-4 py-1.5 text-sm font-medium text-on-accent" label={takeLabel} />
              <OfferActionsSlot offer={offer} prompt />
            </div>
          </Panel>
        </div>
      </div>
      <Panel title={`Fill history · ${fills.length}`}>
        <LiveFillsTable fills={fills} listKey={offer.pda} columns={{ pair: false, maker: false }} emptyTitle="Not filled yet" />
      </Panel>
      <SideRule />
      {offer.status === "open" && (
        // On a phone the take stays at the bottom of the screen, not a page-length scroll away.
        <div
          className="fixed inset-x-0 bottom-0 z-30 flex items-center gap-2 border-t border-line bg-panel/95 px-3 py-2 backdrop-blur sm:hidden"
          data-testid="sticky-trade-bar"
          role="region"
          aria-label="Trade this offer"
        >
          <TakeButton offer={offer} className={`flex-1 rounded-lg px-3 py-2.5 text-sm font-semibold text-on-accent ${offer.side === "sell" ? "bg-bid" : "bg-ask"}`} label={takeLabel} />
        </div>
      )}
    </div>
  );
}
