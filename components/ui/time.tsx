"use client";

import { countdown, relativeTime, utcTime } from "@/client/format";
import { useNow } from "../data/clock";

/**
 * Until the page is interactive (no clock on the server) a time shows as a
 * short "20:31 UTC", about as wide as the "3 min ago" that replaces it, so the
 * swap moves nothing around it (layout shift); the full time is in the tooltip.
 */
const shortUtc = (iso: string) => `${iso.slice(11, 16)} UTC`;

/** "3 min ago", with the UTC time in the tooltip. */
export function TimeAgo({ iso }: { iso: string | null }) {
  const now = useNow();
  if (!iso) return <span className="text-muted">—</span>;
  return (
    <time dateTime={iso} title={utcTime(iso)} className="whitespace-nowrap">
      {now === null ? shortUtc(iso) : relativeTime(iso, now)}
    </time>
  );
}

export function Countdown({ iso }: { iso: string }) {
  const now = useNow();
  const left = now === null ? null : countdown(iso, now);
  return (
    <time dateTime={iso} title={utcTime(iso)} className="tabular whitespace-nowrap">
      {now === null ? shortUtc(iso) : left === null ? "expired" : `in ${left}`}
    </time>
  );
}
