"use client";

import { countdown, relativeTime, utcTime } from "@/client/format";
import { useNow } from "../data/clock";

/** "3 min ago", with the UTC time in the tooltip (and as the text until the page is interactive). */
export function TimeAgo({ iso }: { iso: string | null }) {
  const now = useNow();
  if (!iso) return <span className="text-muted">—</span>;
  return (
    <time dateTime={iso} title={utcTime(iso)} className="whitespace-nowrap">
      {now === null ? utcTime(iso) : relativeTime(iso, now)}
    </time>
  );
}

export function Countdown({ iso }: { iso: string }) {
  const now = useNow();
  const left = now === null ? null : countdown(iso, now);
  return (
    <time dateTime={iso} title={utcTime(iso)} className="tabular whitespace-nowrap">
      {now === null ? utcTime(iso) : left === null ? "expired" : `in ${left}`}
    </time>
  );
}
