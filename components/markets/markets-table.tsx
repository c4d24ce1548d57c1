"use client";

import Link from "next/link";
import { memo } from "react";
import { useRouter } from "next/navigation";
import { spread } from "@/client/price";
import type { Market } from "@/client/types";
import { useMarkets } from "../data/queries";
import { useLiveFeed } from "../live/live-provider";
import { useToken } from "../data/tokens";
import { EmptyState, StaleNote } from "../ui/states";
import { td, tdRight, th, thRight } from "../ui/panel";
import { TimeAgo } from "../ui/time";
import { OfferPrice, TokenAmount, TokenIcon, TokenSymbol } from "../ui/token";

const ALL_CHANGES = {};

export const bookHref = (m: Pick<Market, "tokenMint" | "paymentMint">) => `/book/${m.tokenMint}/${m.paymentMint}`;

function SpreadCell({ market }: { market: Market }) {
  const token = useToken(market.tokenMint);
  const payment = useToken(market.paymentMint);
  if (!market.bestAsk || !market.bestBid) return <span className="text-muted">—</span>;
  const s = spread(market.bestAsk, market.bestBid, token?.decimals, payment?.decimals);
  return (
    <span className={`tabular ${s.percent.startsWith("-") ? "text-warn" : ""}`} title={s.absolute ? `${s.absolute} per token` : undefined}>
      {s.percent}%
    </span>
  );
}

function PairCell({ market }: { market: Market }) {
  const token = useToken(market.tokenMint);
  return (
    <Link href={bookHref(market)} prefetch={false} className="flex min-w-0 items-center gap-3 focus-visible:outline-2 focus-visible:outline-accent" data-testid="market-link">
      <TokenIcon token={token} size={28} />
      <span className="min-w-0">
        <span className="block font-medium">
          {token?.symbol ?? <span className="font-mono text-xs">{market.tokenMint.slice(0, 6)}…</span>}
          <span className="text-muted"> / <TokenSymbol mint={market.paymentMint} /></span>
        </span>
        <span className="block max-w-48 truncate text-xs text-muted">{token?.name ?? "Unknown token"}</span>
      </span>
    </Link>
  );
}

/** One market's card. Memoized: a refetch keeps unchanged markets' objects (React Query's structural sharing), so a live event redraws only the markets it moved. */
const MarketCard = memo(function MarketCard({ market: m }: { market: Market }) {
  return (
    <li className="px-3 py-3" data-market-card={`${m.tokenMint}/${m.paymentMint}`}>
      <PairCell market={m} />
      <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
        <div className="flex justify-between gap-2">
          <dt className="text-muted">Best ask</dt>
          <dd className="tabular text-ask">{m.bestAsk ? <OfferPrice price={m.bestAsk} tokenMint={m.tokenMint} paymentMint={m.paymentMint} /> : "—"}</dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="text-muted">Best bid</dt>
          <dd className="tabular text-bid">{m.bestBid ? <OfferPrice price={m.bestBid} tokenMint={m.tokenMint} paymentMint={m.paymentMint} /> : "—"}</dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="text-muted">Spread</dt>
          <dd><SpreadCell market={m} /></dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="text-muted">Open</dt>
          <dd className="tabular">{m.openOffers} <span className="text-muted">({m.openAsks}/{m.openBids})</span></dd>
        </div>
        <div className="col-span-2 flex justify-between gap-2">
          <dt className="text-muted">24h volume · fills</dt>
          <dd className="tabular">
            <TokenAmount raw={m.volume24h} mint={m.paymentMint} /> <TokenSymbol mint={m.paymentMint} /> · {m.fills24h}
          </dd>
        </div>
      </dl>
    </li>
  );
});

/** On a phone each market is a card: every figure visible, nothing scrolled sideways. */
function MarketCards({ markets }: { markets: Market[] }) {
  return (
    <ul className="divide-y divide-line sm:hidden" data-testid="market-cards">
      {markets.map((m) => (
        <MarketCard key={`${m.tokenMint}/${m.paymentMint}`} market={m} />
      ))}
    </ul>
  );
}

/** One market's table row, memoized as its card is. */
const MarketRow = memo(function MarketRow({ market: m }: { market: Market }) {
  const router = useRouter();
  return (
    <tr
      className="cursor-pointer hover:bg-raised/60"
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest("a,button")) router.push(bookHref(m));
      }}
      data-market={`${m.tokenMint}/${m.paymentMint}`}
    >
      <td className={td}>
        <PairCell market={m} />
      </td>
      <td className={`${tdRight} text-ask`} data-col="best-ask">
        {m.bestAsk ? <OfferPrice price={m.bestAsk} tokenMint={m.tokenMint} paymentMint={m.paymentMint} /> : <span className="text-muted">—</span>}
      </td>
      <td className={`${tdRight} text-bid`} data-col="best-bid">
        {m.bestBid ? <OfferPrice price={m.bestBid} tokenMint={m.tokenMint} paymentMint={m.paymentMint} /> : <span className="text-muted">—</span>}
      </td>
      <td className={`${tdRight} hidden md:table-cell`} data-col="spread">
        <SpreadCell market={m} />
      </td>
      <td className={`${tdRight} tabular hidden md:table-cell`} data-col="open-offers">
        {m.openOffers}
        <span className="ml-1 text-xs text-muted">
          ({m.openAsks}/{m.openBids})
        </span>
      </td>
      <td className={`${tdRight} hidden sm:table-cell`} data-col="volume">
        <TokenAmount raw={m.volume24h} mint={m.paymentMint} /> <span className="text-xs text-muted"><TokenSymbol mint={m.paymentMint} /></span>
      </td>
      <td className={`${tdRight} tabular hidden lg:table-cell`} data-col="fills">
        {m.fills24h}
      </td>
      <td className={`${tdRight} text-muted hidden lg:table-cell`}>
        <TimeAgo iso={m.lastFillAt} />
      </td>
    </tr>
  );
});

export function MarketsTable({ initial, feedAfter }: { initial: Market[]; feedAfter: string | null }) {
  // Every change may move a market: the whole feed, to refetch the aggregates when something happens.
  useLiveFeed(ALL_CHANGES, feedAfter);
  const { data = initial, error } = useMarkets(initial);
  if (data.length === 0) {
    return <EmptyState title="No markets yet">Pairs appear here once an offer is open or a fill happened in the last 24 hours.</EmptyState>;
  }
  return (
    <>
      <StaleNote error={error} />
      <MarketCards markets={data} />
      <div className="relative hidden overflow-x-auto sm:block">
        <table className="w-full text-sm" data-testid="markets-table">
          <thead className="border-b border-line">
            <tr>
              <th className={th}>Pair</th>
              <th className={thRight}>Best ask</th>
              <th className={thRight}>Best bid</th>
              <th className={`${thRight} hidden md:table-cell`}>Spread</th>
              <th className={`${thRight} hidden md:table-cell`}>Open offers</th>
              <th className={`${thRight} hidden sm:table-cell`}>24h volume</th>
              <th className={`${thRight} hidden lg:table-cell`}>24h fills</th>
              <th className={`${thRight} hidden lg:table-cell`}>Last fill</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {data.map((m) => (
              <MarketRow key={`${m.tokenMint}/${m.paymentMint}`} market={m} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
