"use client";

import Link from "next/link";
import { spread } from "@/client/price";
import type { FillList, Offer, OfferList } from "@/client/types";
import { useBookSide, useFills } from "../data/queries";
import { useLiveFeed } from "../live/live-provider";
import { useToken } from "../data/tokens";
import { LiveFillsTable } from "../fills/fills-table";
import { Address } from "../ui/address";
import { MintRiskNote } from "../ui/mint-risk-note";
import { Panel } from "../ui/panel";
import { SideRule } from "../ui/side-rule";
import { StaleNote } from "../ui/states";
import { OfferPrice, TokenIcon, TokenSymbol } from "../ui/token";
import { NewOfferButton, TakeButton } from "../trade/trade-entry";
import { DepthTable } from "./depth-table";
import { PricePanel } from "./price-panel";
import { StickyTradeBar } from "./sticky-trade-bar";

/** A book line's action, worded for the taker: buy from an ask, sell into a bid. */
const takeAction = (offer: Offer) => <TakeButton offer={offer} label={offer.side === "sell" ? "Buy" : "Sell"} />;

/** The book's stream: its pair's changes and, for the chart, its candles. */
const BOOK_TYPES = ["fill", "offer", "revoke", "candle"] as const;

export interface BookInitial {
  asks: OfferList;
  bids: OfferList;
  fills: FillList;
}

function SpreadBar({ asks, bids, tokenMint, paymentMint }: { asks: OfferList; bids: OfferList; tokenMint: string; paymentMint: string }) {
  const token = useToken(tokenMint);
  const payment = useToken(paymentMint);
  const ask = asks.offers[0];
  const bid = bids.offers[0];
  const s = ask && bid ? spread(ask, bid, token?.decimals, payment?.decimals) : null;
  return (
    <dl className="grid grid-cols-3 gap-3 text-sm" data-testid="spread-bar">
      <div className="rounded-xl border border-line bg-panel px-4 py-3">
        <dt className="text-xs uppercase tracking-wide text-muted">Best ask</dt>
        <dd className="mt-1 text-lg font-semibold text-ask" data-testid="best-ask">
          {ask ? <OfferPrice price={ask} tokenMint={tokenMint} paymentMint={paymentMint} /> : "—"}
        </dd>
      </div>
      <div className="rounded-xl border border-line bg-panel px-4 py-3">
        <dt className="text-xs uppercase tracking-wide text-muted">Spread</dt>
        <dd className="mt-1 text-lg font-semibold tabular" data-testid="spread">
          {s ? `${s.percent}%` : "—"}
          {s?.absolute && <span className="ml-2 text-xs font-normal text-muted">{s.absolute}</span>}
        </dd>
        {/* A bid at or above the best ask: each could take the other at once (no matching engine here). */}
        {s && (s.percent.startsWith("-") || /^0(\.0*)?$/.test(s.percent)) && (
          <p className="mt-1 text-xs font-medium text-warn" data-testid="crossed-book">
            Crossed book: the best bid is at or above the best ask; a taker can buy below a bid here.
          </p>
        )}
      </div>
      <div className="rounded-xl border border-line bg-panel px-4 py-3">
        <dt className="text-xs uppercase tracking-wide text-muted">Best bid</dt>
        <dd className="mt-1 text-lg font-semibold text-bid" data-testid="best-bid">
          {bid ? <OfferPrice price={bid} tokenMint={tokenMint} paymentMint={paymentMint} /> : "—"}
        </dd>
      </div>
    </dl>
  );
}

export function BookView({ tokenMint, paymentMint, initial, feedAfter }: { tokenMint: string; paymentMint: string; initial: BookInitial; feedAfter: string | null }) {
  const token = useToken(tokenMint);
  const payment = useToken(paymentMint);
  useLiveFeed({ tokenMint, paymentMint, types: BOOK_TYPES }, feedAfter);
  const asks = useBookSide(tokenMint, paymentMint, "sell", initial.asks);
  const bids = useBookSide(tokenMint, paymentMint, "buy", initial.bids);
  const fills = useFills({ tokenMint, paymentMint, limit: 200 }, initial.fills);
  const askData = asks.data ?? initial.asks;
  const bidData = bids.data ?? initial.bids;
  const fillRows = (fills.data ?? initial.fills).fills;

  return (
    <div className="space-y-6 pb-20 sm:pb-0">
      <div className="flex flex-wrap items-center gap-3">
        <TokenIcon token={token} size={40} />
        <div className="min-w-0">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">
            {token?.symbol ?? "Unknown token"} <span className="text-muted">/ <TokenSymbol mint={paymentMint} /></span>
          </h1>
          <p className="flex flex-wrap items-center gap-x-3 text-sm text-muted">
            <span>{token?.name ?? "Not known to the token provider"}</span>
            <Address value={tokenMint} />
          </p>
        </div>
        <div className="ml-auto flex items-center gap-2">
          <NewOfferButton tokenMint={tokenMint} paymentMint={paymentMint} />
          <Link href={`/fills?tokenMint=${tokenMint}&paymentMint=${paymentMint}`} className="rounded-lg border border-line px-3 py-1.5 text-sm hover:bg-raised">
            All fills of this pair
          </Link>
        </div>
      </div>
      {(token?.decimals == null || payment?.decimals == null) && (
        <p className="rounded-lg border border-warn/40 bg-warn/10 px-3 py-2 text-sm text-warn" role="note">
          The decimals of a mint here are unknown, so its amounts and prices are shown in raw units (marked RAW).
        </p>
      )}
      {/* The token's risks only: the payment mints are the program's own short list. */}
      <MintRiskNote mint={tokenMint} />
      <SpreadBar asks={askData} bids={bidData} tokenMint={tokenMint} paymentMint={paymentMint} />
      <StaleNote error={asks.error ?? bids.error} />
      <PricePanel tokenMint={tokenMint} paymentMint={paymentMint} />
      <SideRule />
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title={<>Asks <span className="font-normal text-muted">· sell offers, lowest first · {askData.offers.length}</span></>}>
          <DepthTable side="sell" offers={askData.offers} rowAction={takeAction} />
        </Panel>
        <Panel title={<>Bids <span className="font-normal text-muted">· buy offers, highest first · {bidData.offers.length}</span></>}>
          <DepthTable side="buy" offers={bidData.offers} rowAction={takeAction} />
        </Panel>
      </div>
      <Panel title="Recent fills">
        <LiveFillsTable fills={fillRows} max={25} listKey={`${tokenMint}/${paymentMint}`} columns={{ pair: false }} emptyTitle="No fills of this pair yet" />
      </Panel>
      <StickyTradeBar bestAsk={askData.offers[0]} bestBid={bidData.offers[0]} />
    </div>
  );
}
