"use client";

import { useEffect, useRef } from "react";
import type { ChartCandle } from "./chart-candles";

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

interface ChartHandle {
  setData(c: ChartCandle[], refit: boolean): void;
  destroy(): void;
}

/**
 * lightweight-charts candles with payment volume beneath; loaded on the book
 * page only, after first paint (book-view imports this module dynamically).
 * `fitKey` changes when the timeframe does: the view refits then, and only
 * then, so live updates do not move what the reader zoomed to.
 */
export function CandleChart({ candles, fitKey, label }: { candles: ChartCandle[]; fitKey: string; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const api = useRef<ChartHandle | null>(null);
  const latest = useRef({ candles, fitKey });
  const fitted = useRef<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let cleanup = () => {};
    void import("lightweight-charts").then(({ createChart, CandlestickSeries, HistogramSeries, ColorType }) => {
      if (cancelled || !box.current) return;
      const chart = createChart(box.current, { autoSize: true, timeScale: { timeVisible: true, secondsVisible: false }, handleScroll: { vertTouchDrag: false } });
      const series = chart.addSeries(CandlestickSeries, { priceLineVisible: false });
      const bars = chart.addSeries(HistogramSeries, { priceScaleId: "volume", priceFormat: { type: "volume" }, lastValueVisible: false, priceLineVisible: false });
      chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
      let volumeColour = "";
      const theme = () => {
        const fg = cssVar("--muted");
        const grid = cssVar("--line");
        const up = cssVar("--bid");
        const down = cssVar("--ask");
        volumeColour = `${cssVar("--accent")}55`;
        chart.applyOptions({
          layout: { background: { type: ColorType.Solid, color: "transparent" }, textColor: fg, attributionLogo: false },
          grid: { vertLines: { color: grid }, horzLines: { color: grid } },
          rightPriceScale: { borderColor: grid },
          timeScale: { borderColor: grid },
        });
        series.applyOptions({ upColor: up, downColor: down, borderUpColor: up, borderDownColor: down, wickUpColor: up, wickDownColor: down });
        bars.applyOptions({ color: volumeColour });
      };
      theme();
      const observer = new MutationObserver(theme);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
      api.current = {
        setData(list, refit) {
          const low = Math.min(...list.map((x) => x.low).filter((v) => v > 0), 1);
          const precision = Math.min(12, Math.max(2, Math.ceil(-Math.log10(low)) + 3));
          series.applyOptions({ priceFormat: { type: "price", precision, minMove: 10 ** -precision } });
          // The chart's time type is a branded number of unix seconds.
          series.setData(list.map((x) => ({ time: x.time as never, open: x.open, high: x.high, low: x.low, close: x.close })));
          bars.setData(list.map((x) => ({ time: x.time as never, value: x.volume })));
          if (refit) chart.timeScale().fitContent();
        },
        destroy() {
          observer.disconnect();
          chart.remove();
        },
      };
      fitted.current = latest.current.fitKey;
      api.current.setData(latest.current.candles, true);
      cleanup = () => api.current?.destroy();
    });
    return () => {
      cancelled = true;
      cleanup();
      api.current = null;
    };
  }, []);

  useEffect(() => {
    // Until the library has loaded, the newest data waits here for it.
    latest.current = { candles, fitKey };
    if (!api.current) return;
    const refit = fitted.current !== fitKey;
    fitted.current = fitKey;
    api.current.setData(candles, refit);
  }, [candles, fitKey]);

  const last = candles[candles.length - 1];
  // data-last: the newest candle's time and volume, so a reader (or a test) sees a live fill reach the chart.
  return (
    <div
      ref={box}
      className="h-full w-full"
      role="img"
      aria-label={label}
      data-testid="candle-chart"
      data-candles={candles.length}
      data-last={last ? `${last.time}:${last.volume}` : ""}
    />
  );
}
