"use client";

import { useSyncExternalStore } from "react";
import type { LiveStatus } from "@/client/live-connection";

// The page stream's status, one value for the whole tab: the indicator shows
// it and every query hook reads it to poll only while the stream is not live.

let status: LiveStatus = "off";
const listeners = new Set<() => void>();

export function setLiveStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** "off" on the server and while hydrating: the first render polls as before. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    subscribe,
    () => status,
    () => "off",
  );
}

/** A query's poll interval: none while the stream is live (events keep it fresh), its cache pace otherwise. */
export function usePollInterval(ms: number): number | false {
  return useLiveStatus() === "live" ? false : ms;
}
