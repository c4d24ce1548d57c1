"use client";

import { useEffect, useRef } from "react";
import { formatDecimal, parseDecimal } from "@/lib/program/decimal";
import { formatUnits } from "@/lib/program/units";
import { chartNumber } from "@/client/price";
import type { Candle, Token } from "@/client/types";

export interface ChartPoint {
  time: number;
  price: number;
  volume: number;
}

/**
 * The pair's one-minute candles (GET /v1/candles, oldest first) as chart
 * points: each minute's close in payment per whole token and its payment
 * volume. Prices are exact decimals turned into floats only here, for plotting.
 */
export function chartPoints(candles: Candle[], token: Token | undefined, payment: Token | undefined): ChartPoint[] {
  const tokenDecimals = token?.decimals;
  const paymentDecimals = payment?.decimals;
  if (tokenDecimals == null || paymentDecimals == null) return [];
  const shift = tokenDecimals - paymentDecimals;
  return candles.map((c) => {
    const close = parseDecimal(c.close);
    return {
      time: c.time,
      price: chartNumber(formatDecimal({ mantissa: close.mantissa, exponent: close.exponent + shift })),
      volume: chartNumber(formatUnits(BigInt(c.quoteVolume), paymentDecimals)),
    };
  });
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** lightweight-charts, loaded on this page only, after first paint. */
export function PriceChart({ points }: { points: ChartPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  const api = useRef<{ setData(p: ChartPoint[]): void; destroy(): void } | null>(null);

  useEffect(() => {
    let cancelled = false;
    let cleanup = () => {};
    void import("lightweight-charts").then(({ createChart, LineSeries, HistogramSeries, ColorType }) => {
      if (cancelled || !box.current) return;
      const chart = createChart(box.current, { autoSize: true, handleScroll: false, handleScale: false, timeScale: { timeVisible: true, secondsVisible: false } });
      const line = chart.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: false, priceFormat: { type: "price", precision: 6, minMove: 0.000001 } });
      const bars = chart.addSeries(HistogramSeries, { priceScaleId: "volume", priceFormat: { type: "volume" }, lastValueVisible: false, priceLineVisible: false });
      chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
      const theme = () => {
        const fg = cssVar("--muted");
        const grid = cssVar("--line");
        chart.applyOptions({
          layout: { background: { type: ColorType.Solid, color: "transparent" }, textColor: fg, attributionLogo: false },
          grid: { vertLines: { color: grid }, horzLines: { color: grid } },
          rightPriceScale: { borderColor: grid },
          timeScale: { borderColor: grid },
        });
        line.applyOptions({ color: cssVar("--accent") });
        bars.applyOptions({ color: `${cssVar("--accent")}55` });
      };
      theme();
      const observer = new MutationObserver(theme);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
      api.current = {
        setData(p) {
          // The chart's time type is a branded number of unix seconds.
          const low = Math.min(...p.map((x) => x.price).filter((v) => v > 0), 1);
          const precision = Math.min(12, Math.max(2, Math.ceil(-Math.log10(low)) + 3));
          line.applyOptions({ priceFormat: { type: "price", precision, minMove: 10 ** -precision } });
          line.setData(p.map((x) => ({ time: x.time as never, value: x.price })));
          bars.setData(p.map((x) => ({ time: x.time as never, value: x.volume })));
          chart.timeScale().fitContent();
        },
        destroy() {
          observer.disconnect();
          chart.remove();
        },
      };
      api.current.setData(points);
      cleanup = () => api.current?.destroy();
    });
    return () => {
      cancelled = true;
      cleanup();
      api.current = null;
    };
    // The chart is made once; data changes go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    api.current?.setData(points);
  }, [points]);

  return <div ref={box} className="h-64 w-full" role="img" aria-label="Price of the pair's fills over time (one-minute closes)" data-testid="price-chart" />;
}
