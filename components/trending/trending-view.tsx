"use client";

import Link from "next/link";
import { useState } from "react";
import { formatCount, formatPercent, formatUsd } from "@/client/format";
import { sortTrending, type TrendingSortKey } from "@/client/trending-sort";
import type { Trending } from "@/client/types";
import { useTrending } from "../data/queries";
import { Address } from "../ui/address";
import { td, tdRight, th } from "../ui/panel";
import { TokenImage } from "../ui/token";
import { EmptyState, ErrorState, StaleNote } from "../ui/states";
import { TimeAgo } from "../ui/time";

const COLUMNS: { key: TrendingSortKey; label: string; numeric: boolean }[] = [
  { key: "symbol", label: "Token", numeric: false },
  { key: "priceUsd", label: "Price", numeric: true },
  { key: "change24h", label: "24h", numeric: true },
  { key: "volume24h", label: "Volume 24h", numeric: true },
  { key: "liquidityUsd", label: "Liquidity", numeric: true },
  { key: "fdv", label: "FDV", numeric: true },
  { key: "marketCap", label: "Market cap", numeric: true },
  { key: "holders", label: "Holders", numeric: true },
  { key: "organicScore", label: "Organic", numeric: true },
];

function Change({ value }: { value: number | null }) {
  const colour = value === null ? "text-muted" : value > 0 ? "text-bid" : value < 0 ? "text-ask" : "text-muted";
  return <span className={`tabular ${colour}`}>{formatPercent(value)}</span>;
}

/** `books`: token mint -> the href of its busiest book here, for tokens that have offers. */
export function TrendingView({ initial, books }: { initial: Trending | null; books: Record<string, string> }) {
  const { data = initial ?? undefined, error } = useTrending(initial);
  const [sort, setSort] = useState<{ key: TrendingSortKey | null; descending: boolean }>({ key: null, descending: true });

  if (!data) {
    return <ErrorState title="Trending tokens are unavailable" message="The token data provider did not answer and nothing is cached yet. This page retries on its own." />;
  }
  const items = sortTrending(data.items, sort.key, sort.descending);
  const toggle = (key: TrendingSortKey) =>
    setSort((s) => (s.key === key ? { key, descending: !s.descending } : { key, descending: key !== "symbol" }));

  return (
    <>
      <StaleNote error={error} />
      <p className="px-4 pt-3 text-xs text-muted">
        {data.count} tokens · provider snapshot <TimeAgo iso={new Date(data.fetchedAt * 1000).toISOString()} />
      </p>
      {items.length === 0 ? (
        <EmptyState title="No trending tokens right now" />
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-sm" data-testid="trending-table">
            <thead className="border-b border-line">
              <tr>
                <th className={th}>#</th>
                {COLUMNS.map((c) => (
                  <th key={c.key} className={c.numeric ? `${th} text-right` : th} aria-sort={sort.key === c.key ? (sort.descending ? "descending" : "ascending") : "none"}>
                    <button type="button" onClick={() => toggle(c.key)} className="inline-flex items-center gap-1 uppercase hover:text-fg focus-visible:outline-2 focus-visible:outline-accent" data-sort={c.key}>
                      {c.label}
                      <span aria-hidden className="w-2">{sort.key === c.key ? (sort.descending ? "↓" : "↑") : ""}</span>
                    </button>
                  </th>
                ))}
                <th className={th}>Links</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {items.map((t, i) => (
                <tr key={t.mint} data-mint={t.mint}>
                  <td className={`${td} text-muted tabular`}>{i + 1}</td>
                  <td className={td}>
                    <span className="flex items-center gap-3">
                      <TokenImage src={t.imageUrl} size={28} />
                      <span className="min-w-0">
                        <span className="flex items-center gap-1 font-medium">
                          {t.symbol}
                          {t.isVerified && (
                            <svg viewBox="0 0 16 16" className="h-3.5 w-3.5 text-accent" fill="currentColor" aria-label="Verified" role="img">
                              <path d="M8 0l2 2.2 3-.3.3 3L16 8l-2.2 2 .3 3-3 .3L8 16l-2-2.2-3 .3-.3-3L0 8l2.2-2-.3-3 3-.3z" />
                              <path d="M5 8.2l2 2 4-4.2" stroke="white" strokeWidth="1.6" fill="none" />
                            </svg>
                          )}
                        </span>
                        <span className="block max-w-36 truncate text-xs text-muted">{t.name}</span>
                        <span className="block text-xs">
                          <Address value={t.mint} />
                        </span>
                      </span>
                    </span>
                  </td>
                  <td className={`${tdRight} tabular`} data-col="price">{formatUsd(t.priceUsd, { compact: false })}</td>
                  <td className={tdRight} data-col="change">
                    <Change value={t.change24h} />
                  </td>
                  <td className={`${tdRight} tabular`}>{formatUsd(t.volume24h)}</td>
                  <td className={`${tdRight} tabular`}>{formatUsd(t.liquidityUsd)}</td>
                  <td className={`${tdRight} tabular`}>{formatUsd(t.fdv)}</td>
                  <td className={`${tdRight} tabular`}>{formatUsd(t.marketCap)}</td>
                  <td className={`${tdRight} tabular`}>{formatCount(t.holders)}</td>
                  <td className={`${tdRight} tabular`}>{t.organicScore === null ? "—" : t.organicScore.toFixed(1)}</td>
                  <td className={td}>
                    <span className="flex items-center gap-3 text-xs">
                      <a href={t.dexscreenerUrl} target="_blank" rel="noreferrer" className="text-accent hover:underline" title="Dexscreener" data-testid="dexscreener-link">
                        Chart ↗
                      </a>
                      {books[t.mint] && (
                        <Link href={books[t.mint]!} prefetch={false} className="rounded bg-accent/15 px-2 py-0.5 font-medium text-accent hover:bg-accent/25" data-testid="book-link">
                          Book
                        </Link>
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
