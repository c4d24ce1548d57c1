"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { LiveConnection } from "@/lib/ui/live-connection";
import { filterKey, streamPath, type LiveFilter } from "@/lib/ui/live-events";
import { LiveCache } from "./live-cache";
import { setLiveStatus } from "./live-status";

// One EventSource per page, filtered for what the page shows (the page's view
// asks with useLiveFeed). Its events go into the query caches; the stream is
// closed while the tab is hidden and reopened after the last id seen.

type Register = (filter: LiveFilter) => () => void;

const FeedContext = createContext<Register | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [feed, setFeed] = useState<{ filter: LiveFilter } | null>(null);
  const [register] = useState<Register>(() => (filter: LiveFilter) => {
    const entry = { filter };
    setFeed(entry);
    return () => setFeed((current) => (current === entry ? null : current));
  });

  useEffect(() => {
    if (!feed || typeof EventSource === "undefined") return;
    const cache = new LiveCache(client);
    const connection = new LiveConnection({
      url: (after) => streamPath(feed.filter, after),
      onEvent: (event) => cache.apply(event),
      onStatus: setLiveStatus,
      // A stream that starts fresh begins at "now": what changed since the server rendered the page is fetched once.
      onOpen: (resumed) => {
        if (!resumed) cache.refetchAll();
      },
    });
    const follow = () => (document.hidden ? connection.pause() : connection.start());
    follow();
    document.addEventListener("visibilitychange", follow);
    return () => {
      document.removeEventListener("visibilitychange", follow);
      connection.stop();
      cache.dispose();
    };
  }, [client, feed]);

  return <FeedContext.Provider value={register}>{children}</FeedContext.Provider>;
}

/** Keeps this page's data live through the shared stream, with the filters given (null: no stream). */
export function useLiveFeed(filter: LiveFilter | null): void {
  const register = useContext(FeedContext);
  const key = filter ? filterKey(filter) : null;
  const [stable, setStable] = useState(filter);
  if (key !== (stable ? filterKey(stable) : null)) setStable(filter);
  useEffect(() => {
    if (!register || !stable) return;
    return register(stable);
  }, [register, stable]);
}
