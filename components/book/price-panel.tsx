"use client";

import dynamic from "next/dynamic";
import { memo, useMemo, useState } from "react";
import { TIMEFRAMES, type Timeframe, useCandles } from "../data/queries";
import { useToken } from "../data/tokens";
import { Panel } from "../ui/panel";
import { Skeleton } from "../ui/states";
import { TokenSymbol } from "../ui/token";
import { chartCandles } from "./chart-candles";

// The chart library is the heaviest thing on the book page: its own chunk, after first paint.
const CandleChart = dynamic(() => import("./candle-chart").then((m) => m.CandleChart), {
  ssr: false,
  loading: () => <Skeleton className="h-full w-full" />,
});

const LABEL: Record<Timeframe, string> = { "1m": "1 minute", "5m": "5 minutes", "1h": "1 hour", "1d": "1 day" };

/**
 * The pair's candles at a chosen timeframe. The box keeps one height whether
 * loading, empty or drawn, so nothing below it moves when the chart arrives.
 * Memoized: its own queries (the candles) draw it again; the book page's other events do not.
 */
export const PricePanel = memo(function PricePanel({ tokenMint, paymentMint }: { tokenMint: string; paymentMint: string }) {
  const [timeframe, setTimeframe] = useState<Timeframe>("5m");
  const token = useToken(tokenMint);
  const payment = useToken(paymentMint);
  const candles = useCandles(tokenMint, paymentMint, timeframe);
  const rows = useMemo(() => chartCandles(candles.data ?? [], token, payment), [candles.data, token, payment]);
  const symbol = token?.symbol ?? "token";
  const title = (
    <>
      Price <span className="font-normal text-muted">(<TokenSymbol mint={paymentMint} /> per {symbol}; volume in <TokenSymbol mint={paymentMint} />)</span>
    </>
  );
  const switcher = (
    <div role="group" aria-label="Candle timeframe" className="inline-flex rounded-lg border border-line p-0.5 text-xs" data-testid="timeframes">
      {TIMEFRAMES.map((t) => (
        <button
          key={t}
          type="button"
          aria-pressed={t === timeframe}
          // The name starts with what the button shows (WCAG 2.5.3).
          aria-label={`${t}: ${LABEL[t]} candles`}
          onClick={() => setTimeframe(t)}
          className={`min-w-9 rounded-md px-2 py-1 font-medium ${t === timeframe ? "bg-accent text-on-accent" : "text-muted hover:bg-raised"}`}
          data-timeframe={t}
        >
          {t}
        </button>
      ))}
    </div>
  );
  const loading = candles.data === undefined;
  return (
    <Panel title={title} actions={switcher}>
      <div className="relative h-72 p-2" data-testid="price-panel" data-timeframe={timeframe} aria-busy={candles.isFetching}>
        {loading ? (
          <Skeleton className="h-full w-full" />
        ) : rows.length > 0 ? (
          <CandleChart candles={rows} fitKey={`${tokenMint}/${paymentMint}/${timeframe}`} label={`${symbol} price candles, ${LABEL[timeframe]} each, from fills`} />
        ) : (
          <div className="flex h-full flex-col items-center justify-center text-center" data-empty>
            <p className="font-medium">No fills in this window</p>
            <p className="text-sm text-muted">Candles draw once this pair trades.</p>
          </div>
        )}
      </div>
    </Panel>
  );
});
