"use client";

import Link from "next/link";
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

export function MarketsTable({ initial, feedAfter }: { initial: Market[]; feedAfter: string | null }) {
  const router = useRouter();
  // Every change may move a market: the whole feed, to refetch the aggregates when something happens.
  useLiveFeed(ALL_CHANGES, feedAfter);
  const { data = initial, error } = useMarkets(initial);
  if (data.length === 0) {
    return <EmptyState title="No markets yet">Pairs appear here once an offer is open or a fill happened in the last 24 hours.</EmptyState>;
  }
  return (
    <>
      <StaleNote error={error} />
      <div className="relative overflow-x-auto">
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
              <tr
                key={`${m.tokenMint}/${m.paymentMint}`}
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
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
