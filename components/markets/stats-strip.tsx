"use client";

import { groupThousands } from "@/client/format";
import type { ProtocolStats } from "@/client/types";
import { useStats } from "../data/queries";
import { TokenAmount, TokenSymbol } from "../ui/token";

function Stat({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded-xl border border-line bg-panel px-4 py-3" data-testid={testId}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular">{children}</dd>
    </div>
  );
}

function ByMint({ amounts }: { amounts: Record<string, string> }) {
  const entries = Object.entries(amounts);
  if (entries.length === 0) return <span className="text-muted">—</span>;
  return (
    <span className="flex flex-col gap-0.5 text-base">
      {entries.map(([mint, raw]) => (
        <span key={mint} className="truncate">
          <TokenAmount raw={raw} mint={mint} /> <span className="text-sm font-normal text-muted"><TokenSymbol mint={mint} /></span>
        </span>
      ))}
    </span>
  );
}

const n = (v: number | undefined) => groupThousands(String(v ?? 0));

/** The protocol's counters and totals, refreshed at /v1/stats' own 10-second cache lifetime. */
export function StatsStrip({ initial }: { initial: ProtocolStats }) {
  const { data = initial } = useStats(initial);
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-5" aria-label="Protocol statistics">
      <Stat label="Open offers" testId="stat-open">{n(data.openOffers)}</Stat>
      <Stat label="All offers" testId="stat-total">
        {n(data.totalOffers)}
        <span className="block text-xs font-normal text-muted">
          {n(data.filledOffers)} filled · {n(data.expiredOffers)} expired · {n(data.cancelledOffers)} cancelled
        </span>
      </Stat>
      <Stat label="Fills" testId="stat-fills">{n(data.totalFills)}</Stat>
      <Stat label="Volume" testId="stat-volume"><ByMint amounts={data.volumeByMint} /></Stat>
      <Stat label="Fees" testId="stat-fees"><ByMint amounts={data.feesByMint} /></Stat>
    </dl>
  );
}
