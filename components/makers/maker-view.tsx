"use client";

import Link from "next/link";
import { groupThousands } from "@/client/format";
import { OFFER_STATUSES as STATUS_TABS, type FillList, type MakerStats, type OfferList, type OfferStatus } from "@/client/types";
import { useFills, useMakerOffers, useMakerStats } from "../data/queries";
import { useLiveFeed } from "../live/live-provider";
import { LiveFillsTable } from "../fills/fills-table";
import { Address } from "../ui/address";
import { SideBadge, StatusBadge } from "../ui/badges";
import { DataTable } from "../ui/data-table";
import { PairLink } from "../ui/pair-link";
import { Panel } from "../ui/panel";
import { offerColumns } from "../offers/offer-columns";
import { MakerBulkSlot, NewOfferButton, OfferActionsSlot } from "../trade/trade-entry";
import { EmptyState, StaleNote } from "../ui/states";
import { Countdown, TimeAgo } from "../ui/time";
import { OfferPrice, TokenAmount, TokenLabel, TokenSymbol } from "../ui/token";


function Counter({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <div className="rounded-xl border border-line bg-panel px-4 py-3" data-testid={testId}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular">{groupThousands(String(value ?? 0))}</dd>
    </div>
  );
}

function Totals({ title, amounts, testId }: { title: string; amounts: Record<string, string>; testId: string }) {
  const entries = Object.entries(amounts);
  return (
    <Panel title={title}>
      {entries.length === 0 ? (
        <p className="px-4 py-6 text-sm text-muted">Nothing yet.</p>
      ) : (
        <ul className="divide-y divide-line" data-testid={testId}>
          {entries.map(([mint, raw]) => (
            <li key={mint} className="flex items-center justify-between gap-3 px-4 py-2 text-sm" data-mint={mint}>
              <TokenLabel mint={mint} showName />
              <TokenAmount raw={raw} mint={mint} className="font-medium" />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

const MAKER_OFFER_COLUMNS = [
  offerColumns.address(),
  offerColumns.pair(),
  offerColumns.side(),
  offerColumns.price(),
  offerColumns.remaining(),
  offerColumns.size(),
  offerColumns.status(),
  offerColumns.created(),
  offerColumns.expires(),
  offerColumns.actions(),
];

function OffersTable({ list }: { list: OfferList }) {
  if (list.offers.length === 0) return <EmptyState title="No offers with this status" />;
  return (
    <>
    <ul className="divide-y divide-line sm:hidden" data-testid="maker-offer-cards">
      {list.offers.map((o) => (
        <li key={o.pda} className="space-y-1 px-3 py-2.5 text-sm" data-offer-card={o.pda}>
          <div className="flex items-center justify-between gap-2">
            <PairLink tokenMint={o.tokenMint} paymentMint={o.paymentMint} />
            <span className="flex items-center gap-1">
              <SideBadge side={o.side} />
              <StatusBadge status={o.status} />
            </span>
          </div>
          <div className="flex flex-wrap justify-between gap-x-3 text-xs tabular">
            <span>
              <OfferPrice price={o} tokenMint={o.tokenMint} paymentMint={o.paymentMint} /> <TokenSymbol mint={o.paymentMint} /> each
            </span>
            <span>
              <TokenAmount raw={o.remainingSize} mint={o.tokenMint} /> of <TokenAmount raw={o.originalSize} mint={o.tokenMint} showSymbol /> left
            </span>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-x-3 text-xs text-muted">
            <Address value={o.pda} href={`/offers/${o.pda}`} />
            <span>{o.status === "open" ? <Countdown iso={o.expiresAt} /> : <TimeAgo iso={o.createdAt} />}</span>
          </div>
          <OfferActionsSlot offer={o} />
        </li>
      ))}
    </ul>
    <div className="relative hidden overflow-x-auto sm:block">
      <DataTable testId="maker-offers" columns={MAKER_OFFER_COLUMNS} rows={list.offers} rowKey={(o) => o.pda} rowProps={(o) => ({ "data-offer": o.pda })} />
    </div>
    </>
  );
}

export interface MakerInitial {
  stats: MakerStats;
  offers: OfferList;
  fills: FillList;
}

export function MakerView({ maker, status, cursor, initial, feedAfter }: { maker: string; status: OfferStatus; cursor?: string; initial: MakerInitial; feedAfter: string | null }) {
  useLiveFeed({ maker }, feedAfter);
  const { data: stats = initial.stats, error } = useMakerStats(maker, initial.stats);
  const { data: offers = initial.offers } = useMakerOffers(maker, status, cursor, initial.offers);
  const { data: fills = initial.fills } = useFills({ maker, limit: 50 }, initial.fills);
  const counts: Record<OfferStatus, number | undefined> = {
    open: stats.openOffers,
    filled: stats.filledOffers,
    expired: stats.expiredOffers,
    cancelled: stats.cancelledOffers,
  };

  return (
    <div className="min-w-0 space-y-6">
      <div className="min-w-0">
        <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Maker</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
          <Address value={maker} full />
          <Link href={`/fills?taker=${maker}`} className="text-accent hover:underline">
            fills taken by this wallet
          </Link>
        </p>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <MakerBulkSlot maker={maker} />
          <NewOfferButton />
        </div>
      </div>
      <StaleNote error={error} />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        <Counter label="All offers" value={stats.totalOffers} testId="maker-total" />
        <Counter label="Open" value={stats.openOffers} testId="maker-open" />
        <Counter label="Filled" value={stats.filledOffers} testId="maker-filled" />
        <Counter label="Expired" value={stats.expiredOffers} testId="maker-expired" />
        <Counter label="Cancelled" value={stats.cancelledOffers} testId="maker-cancelled" />
      </dl>
      <div className="grid gap-6 md:grid-cols-2">
        <Totals title="Sold (tokens, through sell offers)" amounts={stats.totalSold} testId="maker-sold" />
        <Totals title="Bought (tokens, through buy offers)" amounts={stats.totalBought} testId="maker-bought" />
      </div>
      <Panel
        title="Offers"
        actions={
          <nav role="tablist" aria-label="Offer status" className="flex flex-wrap gap-1">
            {STATUS_TABS.map((s) => (
              <Link
                key={s}
                role="tab"
                aria-selected={s === status}
                href={s === "open" ? `/makers/${maker}` : `/makers/${maker}?status=${s}`}
                scroll={false}
                className={`rounded-md px-2.5 py-1 text-xs font-medium capitalize ${s === status ? "bg-accent text-on-accent" : "text-muted hover:bg-raised hover:text-fg"}`}
              >
                {s} <span className="opacity-75">{counts[s] ?? 0}</span>
              </Link>
            ))}
          </nav>
        }
      >
        <OffersTable list={offers} />
        {(cursor || offers.nextCursor) && (
          <nav aria-label="Offer pages" className="flex justify-between border-t border-line px-4 py-3 text-sm">
            {cursor ? <Link href={`/makers/${maker}?status=${status}`}>← First page</Link> : <span />}
            {offers.nextCursor && <Link href={`/makers/${maker}?status=${status}&cursor=${offers.nextCursor}`}>Next →</Link>}
          </nav>
        )}
      </Panel>
      <Panel title="Fills of this maker's offers" actions={<Link href={`/fills?maker=${maker}`} className="text-xs text-accent hover:underline">all, with filters</Link>}>
        <LiveFillsTable fills={fills.fills} listKey={maker} columns={{ maker: false }} emptyTitle="No fills of this maker's offers yet" />
      </Panel>
    </div>
  );
}
