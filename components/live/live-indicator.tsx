"use client";

import type { LiveStatus } from "@/client/live-connection";
import { useLiveStatus } from "./live-status";

// Whether the page is live: shown only on pages that follow the stream.

const LOOK: Record<Exclude<LiveStatus, "off">, { label: string; dot: string; title: string }> = {
  live: { label: "Live", dot: "bg-bid", title: "Changes appear as they are indexed" },
  connecting: { label: "Connecting", dot: "bg-warn animate-pulse", title: "Opening the live stream; the page refreshes itself meanwhile" },
  reconnecting: { label: "Reconnecting", dot: "bg-warn animate-pulse", title: "The live stream is down; the page refreshes itself every few seconds meanwhile" },
  paused: { label: "Paused", dot: "bg-muted", title: "Paused while the tab is hidden; it catches up when shown" },
};

/**
 * One fixed-size slot, reserved even before the page's stream starts (the
 * server renders "off"): the header never reflows when it appears or changes
 * word. On a phone only the dot shows; the word stays for screen readers.
 */
export function LiveIndicator() {
  const status = useLiveStatus();
  if (status === "off") return <span aria-hidden className="inline-block h-7 w-7 shrink-0 sm:w-28" />;
  const look = LOOK[status];
  return (
    <span
      role="status"
      aria-live="polite"
      title={look.title}
      data-testid="live-indicator"
      data-state={status}
      className="inline-flex h-7 w-7 shrink-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-full border border-line text-xs font-medium text-muted sm:w-28"
    >
      <span aria-hidden className={`h-2 w-2 shrink-0 rounded-full ${look.dot}`} />
      <span className="sr-only sm:not-sr-only">{look.label}</span>
    </span>
  );
}
