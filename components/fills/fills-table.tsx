"use client";

import { memo, useMemo, useState } from "react";
import { NewRowsPill, useHeldRows } from "../live/held-rows";
import { fillKey } from "@/client/fill-rows";
import type { Fill } from "@/client/types";
import { Address } from "../ui/address";
import { DataTable, type Column } from "../ui/data-table";
import { PairLink } from "../ui/pair-link";
import { EmptyState } from "../ui/states";
import { TimeAgo } from "../ui/time";
import { FillPrice, TokenAmount, TokenSymbol } from "../ui/token";
import { fillColumns } from "./fill-columns";

export const FILL_NOUN: [string, string] = ["fill", "fills"];

/**
 * The taker's direction, with the offer's side (the API's `side`) beside it,
 * so the two never read as contradicting: a fill of a sell offer is a
 * taker's buy ("Buy · ask"), of a buy offer a taker's sell ("Sell · bid").
 */
export function TradeType({ side }: { side: Fill["side"] }) {
  return side === "sell" ? (
    <span className="whitespace-nowrap" title="The taker bought from a sell offer (ask); the API's side is the offer's: sell" data-side={side}>
      <span className="font-medium text-bid">Buy</span> <span className="text-xs text-muted">· ask</span>
    </span>
  ) : (
    <span className="whitespace-nowrap" title="The taker sold into a buy offer (bid); the API's side is the offer's: buy" data-side={side}>
      <span className="font-medium text-ask">Sell</span> <span className="text-xs text-muted">· bid</span>
    </span>
  );
}

export interface FillColumns {
  pair?: boolean;
  maker?: boolean;
}

/** Rows that were not there when the table first rendered arrived live: they light up once. */
function useArrived(fills: readonly Fill[], given: ReadonlySet<string> | undefined): ReadonlySet<string> {
  const [first] = useState(() => new Set(fills.map(fillKey)));
  const arrived = useMemo(() => new Set(fills.map(fillKey).filter((k) => !first.has(k))), [fills, first]);
  return given ?? arrived;
}

/** The fill table's columns; `pair` and `maker` drop out where the page already says them. */
function columnsOf({ pair = true, maker = true }: FillColumns): Column<Fill>[] {
  return [
    fillColumns.time(),
    ...(pair ? [fillColumns.pair()] : []),
    { header: <span title="The taker's direction, then the side of the offer it took (the API's side)">Taker · offer</span>, cell: (f) => <TradeType side={f.side} /> },
    fillColumns.price(),
    fillColumns.amount(),
    fillColumns.total(),
    fillColumns.fee(),
    ...(maker ? [{ header: "Maker", cell: (f: Fill) => (f.maker ? <Address value={f.maker} href={`/makers/${f.maker}`} /> : "—") }] : []),
    { header: "Taker", cell: (f) => <Address value={f.taker} href={`/fills?taker=${f.taker}`} /> },
    { header: "Offer", cell: (f) => <Address value={f.offerPda} href={`/offers/${f.offerPda}`} /> },
    fillColumns.tx(),
  ];
}

export function FillsTable({ fills, columns = {}, fresh, emptyTitle = "No fills" }: { fills: readonly Fill[]; columns?: FillColumns; fresh?: ReadonlySet<string>; emptyTitle?: string }) {
  const arrived = useArrived(fills, fresh);
  // One columns array while the flags hold, so DataTable's rows need not draw again.
  const { pair, maker } = columns;
  const tableColumns = useMemo(() => columnsOf({ pair, maker }), [pair, maker]);
  if (fills.length === 0) return <EmptyState title={emptyTitle}>Fills appear here as takers take offers.</EmptyState>;
  return (
    <>
      <FillCards fills={fills} pair={pair ?? true} arrived={arrived} />
      <div className="relative hidden overflow-x-auto sm:block">
        <DataTable
          testId="fills-table"
          columns={tableColumns}
          rows={fills}
          rowKey={fillKey}
          rowProps={(f) => ({ className: arrived.has(fillKey(f)) ? "row-arrive" : undefined, "data-fill": fillKey(f) })}
        />
      </div>
    </>
  );
}

/** A live fill list: fills arriving while the reader may be looking at it wait behind the "N new fills" pill. */
export function LiveFillsTable({ fills, listKey, max, ...table }: { fills: Fill[]; listKey: string; max?: number; columns?: FillColumns; emptyTitle?: string }) {
  // The newest `max` of the rows the reader has: held rows do not push shown ones out.
  const held = useHeldRows(fills, fillKey, listKey);
  const shown = useMemo(() => (max === undefined ? held.shown : held.shown.slice(0, max)), [held.shown, max]);
  return (
    <>
      <NewRowsPill rows={held} noun={FILL_NOUN} />
      <FillsTable fills={shown} {...table} />
    </>
  );
}

/** On a phone each fill is a card: direction, price, amount and total first, the addresses beneath. */
function FillCards({ fills, pair, arrived }: { fills: readonly Fill[]; pair: boolean; arrived: ReadonlySet<string> }) {
  return (
    <ul className="divide-y divide-line sm:hidden" data-testid="fill-cards">
      {fills.map((f) => (
        <FillCard key={fillKey(f)} f={f} pair={pair} arrived={arrived.has(fillKey(f))} />
      ))}
    </ul>
  );
}

/** One card: drawn again only when its fill or its highlight changes. */
const FillCard = memo(function FillCard({ f, pair, arrived }: { f: Fill; pair: boolean; arrived: boolean }) {
  return (
    <li className={`px-3 py-2.5 text-sm ${arrived ? "row-arrive" : ""}`} data-fill-card={fillKey(f)}>
      <div className="flex items-center justify-between gap-2">
        <span className="flex min-w-0 items-center gap-2">
          <TradeType side={f.side} />
          {pair && <PairLink tokenMint={f.tokenMint} paymentMint={f.paymentMint} />}
        </span>
        <span className="text-xs text-muted">
          <TimeAgo iso={f.blockTime} />
        </span>
      </div>
      <div className="mt-1 flex flex-wrap justify-between gap-x-3 text-xs tabular">
        <span>
          <TokenAmount raw={f.fillAmount} mint={f.tokenMint} showSymbol /> @{" "}
          <FillPrice fillAmount={f.fillAmount} paymentAmount={f.paymentAmount} tokenMint={f.tokenMint} paymentMint={f.paymentMint} />
        </span>
        <span>
          <TokenAmount raw={f.paymentAmount} mint={f.paymentMint} /> <TokenSymbol mint={f.paymentMint} />
          <span className="text-muted">
            {" "}· fee <TokenAmount raw={f.feeAmount} mint={f.paymentMint} />
          </span>
        </span>
      </div>
      <div className="mt-1 flex flex-wrap gap-x-3 text-xs text-muted">
        <span>
          offer <Address value={f.offerPda} href={`/offers/${f.offerPda}`} />
        </span>
        <span>
          taker <Address value={f.taker} href={`/fills?taker=${f.taker}`} />
        </span>
      </div>
    </li>
  );
});
