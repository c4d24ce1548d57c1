"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { memo, type ReactNode } from "react";
import { depthPercent } from "@/client/price";
import type { Offer } from "@/client/types";
import { EmptyState } from "../ui/states";
import { tdRight, th, thRight } from "../ui/panel";
import { Countdown } from "../ui/time";
import { OfferPrice, TokenAmount, TokenSymbol } from "../ui/token";

/** Running totals of remaining size, best price first. */
function cumulativeDepths(offers: Offer[]): bigint[] {
  const out: bigint[] = [];
  for (const o of offers) out.push((out[out.length - 1] ?? 0n) + BigInt(o.remainingSize));
  return out;
}

/**
 * One side of the book, best price first, each row's bar the cumulative
 * remaining size up to it as a share of the side's total. Memoized: a fill
 * event (the book page's fills) leaves the book's sides alone; keep rowAction one function.
 */
export const DepthTable = memo(function DepthTable({ side, offers, rowAction }: { side: "sell" | "buy"; offers: Offer[]; rowAction?: (offer: Offer) => ReactNode }) {
  const router = useRouter();
  const colour = side === "sell" ? "text-ask" : "text-bid";
  const bar = `color-mix(in oklab, var(${side === "sell" ? "--ask" : "--bid"}) 14%, transparent)`;
  if (offers.length === 0) return <EmptyState title={side === "sell" ? "No asks" : "No bids"}>Nobody is {side === "sell" ? "selling" : "buying"} this token right now.</EmptyState>;
  const depths = cumulativeDepths(offers);
  const total = depths[depths.length - 1] ?? 0n;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-sm" data-testid={side === "sell" ? "asks-table" : "bids-table"}>
        <thead className="border-b border-line">
          <tr>
            {/* Units in every header: a price is payment per token, sizes are in the token. */}
            <th className={th}>
              Price <span className="font-normal normal-case">(<TokenSymbol mint={offers[0]!.paymentMint} />)</span>
            </th>
            <th className={thRight}>
              Remaining <span className="font-normal normal-case">(<TokenSymbol mint={offers[0]!.tokenMint} />)</span>
            </th>
            <th className={`${thRight} hidden sm:table-cell`}>
              Size <span className="font-normal normal-case">(<TokenSymbol mint={offers[0]!.tokenMint} />)</span>
            </th>
            <th className={`${thRight} hidden sm:table-cell`} title="The least a taker may take of this offer at once (less only when taking all that remains)">
              Min fill <span className="font-normal normal-case">(<TokenSymbol mint={offers[0]!.tokenMint} />)</span>
            </th>
            <th className={thRight}>
              Depth <span className="font-normal normal-case">(<TokenSymbol mint={offers[0]!.tokenMint} />)</span>
            </th>
            <th className={`${thRight} hidden md:table-cell`}>
              Expires <span className="font-normal normal-case">(UTC in tooltip)</span>
            </th>
            {rowAction && <th className={thRight}><span className="sr-only">Action</span></th>}
          </tr>
        </thead>
        <tbody>
          {offers.map((o, i) => {
            const cumulative = depths[i] ?? 0n;
            const width = depthPercent(cumulative, total);
            return (
              <tr
                key={o.pda}
                className="relative cursor-pointer hover:bg-raised/60"
                onClick={(e) => {
                  if (!(e.target as HTMLElement).closest("a,button")) router.push(`/offers/${o.pda}`);
                }}
                data-offer={o.pda}
                style={{ backgroundImage: `linear-gradient(to left, ${bar} ${width}%, transparent ${width}%)` }}
              >
                <td className={`px-3 py-1.5 font-medium ${colour}`}>
                  <Link href={`/offers/${o.pda}`} prefetch={false} className="hover:underline focus-visible:outline-2 focus-visible:outline-accent" title={`Open offer ${o.pda}`}>
                    <OfferPrice price={o} tokenMint={o.tokenMint} paymentMint={o.paymentMint} />
                    {/* The link's name begins with what it shows (WCAG 2.5.3), then says where it goes. */}
                    <span className="sr-only">: open the offer</span>
                  </Link>
                </td>
                <td className={`${tdRight} py-1.5`} data-col="remaining">
                  <TokenAmount raw={o.remainingSize} mint={o.tokenMint} />
                </td>
                <td className={`${tdRight} hidden py-1.5 text-muted sm:table-cell`} data-col="size">
                  <TokenAmount raw={o.originalSize} mint={o.tokenMint} />
                </td>
                <td className={`${tdRight} hidden py-1.5 text-muted sm:table-cell`} data-col="min-fill">
                  <TokenAmount raw={o.minFill} mint={o.tokenMint} />
                </td>
                <td className={`${tdRight} py-1.5 text-muted`} data-col="depth" data-depth={width}>
                  <TokenAmount raw={cumulative.toString()} mint={o.tokenMint} />
                </td>
                <td className={`${tdRight} hidden w-32 max-w-32 truncate py-1.5 text-muted md:table-cell`} data-col="expiry">
                  <Countdown iso={o.expiresAt} />
                </td>
                {rowAction && <td className={`${tdRight} py-1`}>{rowAction(o)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
});
