"use client";

import { useQuery } from "@tanstack/react-query";
import { formatUnits, percentFrom, type ScaledPrice } from "@/lib/program";
import { api } from "@/client/api";
import { spendable, useWalletBalances } from "../wallet/use-balances";

// The pieces the create and take forms share: a two-way switch, the wallet's
// balance of a mint with Max, and where a price stands against the book.

export const fieldClass = "w-full rounded-lg border border-line bg-surface px-3 py-2 text-sm tabular focus-visible:outline-2 focus-visible:outline-accent aria-[invalid=true]:border-ask";

/** A two-option radio group drawn as a segmented switch. */
export function Segmented<T extends string>({
  legend,
  value,
  options,
  onChange,
  disabled,
  testId,
}: {
  legend: string;
  value: T;
  options: readonly { value: T; label: string; tone?: "bid" | "ask" }[];
  onChange: (value: T) => void;
  disabled?: boolean;
  testId: string;
}) {
  return (
    <fieldset className="space-y-1" data-testid={testId} data-value={value}>
      <legend className="text-muted">{legend}</legend>
      <div className="grid grid-flow-col gap-1 rounded-lg border border-line p-1">
        {options.map((o) => {
          const on = o.value === value;
          const tone = on ? (o.tone === "bid" ? "bg-bid text-on-accent" : o.tone === "ask" ? "bg-ask text-on-accent" : "bg-accent text-on-accent") : "hover:bg-raised";
          return (
            <label key={o.value} className={`cursor-pointer rounded-md px-3 py-1.5 text-center text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${tone}`}>
              <input type="radio" className="sr-only" name={testId} value={o.value} checked={on} disabled={disabled} onChange={() => onChange(o.value)} data-testid={`${testId}-${o.value}`} />
              {o.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** "Balance 12.5 ORCA  Max": what the connected wallet holds of `mint`; Max hands the whole spendable amount to `onMax`. */
export function BalanceLine({ owner, mint, decimals, symbol, onMax, disabled }: { owner: string; mint: string; decimals: number; symbol: string; onMax?: (raw: bigint) => void; disabled?: boolean }) {
  const { data, isError } = useWalletBalances(owner);
  const amount = spendable(data, mint);
  return (
    <p className="flex items-center justify-between gap-2 text-xs text-muted">
      <span>
        Balance{" "}
        <span className="font-medium tabular text-fg" data-testid="form-balance" data-mint={mint} data-raw={amount?.toString()}>
          {isError ? "unavailable" : amount === null ? "…" : `${formatUnits(amount, decimals)} ${symbol}`}
        </span>
      </span>
      {onMax && (
        <button type="button" className="rounded-md border border-line px-2 py-0.5 font-medium text-fg hover:bg-raised disabled:opacity-50" disabled={disabled || amount === null || amount <= 0n} onClick={() => amount !== null && onMax(amount)} data-testid="form-max">
          Max
        </button>
      )}
    </p>
  );
}

/** The pair's best ask and bid (raw prices), from /v1/book. */
export function useBestPrices(tokenMint: string, paymentMint: string) {
  const { data } = useQuery({
    queryKey: ["book-top", tokenMint, paymentMint],
    queryFn: ({ signal }) => api.book({ tokenMint, paymentMint, depth: 1 }, signal),
    enabled: tokenMint !== "" && paymentMint !== "",
    staleTime: 5_000,
  });
  return { bestAsk: data?.asks[0]?.price ?? null, bestBid: data?.bids[0]?.price ?? null };
}

function percentText(p: number): string {
  const rounded = Math.abs(p) < 0.005 ? 0 : p;
  return `${rounded > 0 ? "+" : ""}${rounded.toFixed(2)}%`;
}

/** "+1.20% vs best ask · −3.10% vs best bid", and a word when a bid would cross the asks (or an ask the bids). */
export function VersusBest({ price, side, tokenMint, paymentMint }: { price: ScaledPrice; side: "buy" | "sell"; tokenMint: string; paymentMint: string }) {
  const { bestAsk, bestBid } = useBestPrices(tokenMint, paymentMint);
  const vsAsk = bestAsk === null ? null : percentFrom(price, bestAsk);
  const vsBid = bestBid === null ? null : percentFrom(price, bestBid);
  const crosses = side === "buy" ? vsAsk !== null && vsAsk >= 0 : vsBid !== null && vsBid <= 0;
  return (
    <p className="text-xs text-muted" data-testid="create-vs-best" data-vs-ask={vsAsk ?? undefined} data-vs-bid={vsBid ?? undefined}>
      {vsAsk === null && vsBid === null ? (
        "No open offers on this pair yet."
      ) : (
        <>
          {vsAsk !== null && <span>{percentText(vsAsk)} vs best ask</span>}
          {vsAsk !== null && vsBid !== null && " · "}
          {vsBid !== null && <span>{percentText(vsBid)} vs best bid</span>}
        </>
      )}
      {crosses && (
        <span className="mt-0.5 block text-warn" data-testid="create-crosses">
          {side === "buy" ? "At or above the best ask: taking that offer fills you now at its price." : "At or below the best bid: taking that bid fills you now at its price."}
        </span>
      )}
    </p>
  );
}
