"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { LiveConnection } from "@/client/live-connection";
import { filterKey, streamPath, type LiveFilter } from "@/client/live-events";
import { LiveCache } from "./live-cache";
import { setLiveStatus } from "./live-status";

// One EventSource per page, filtered for what the page shows (the page's view
// asks with useLiveFeed). It starts after the feed id the server read before
// rendering the page, so the first view stays and the stream only adds. Its
// events go into the query caches; the stream is closed while the tab is
// hidden and reopened after the last id seen.

interface Feed {
  filter: LiveFilter;
  /** The id to start after; null: from now, refetching once what may have changed since the render. */
  after: string | null;
}

type Register = (feed: Feed) => () => void;

const FeedContext = createContext<Register | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [feed, setFeed] = useState<Feed | null>(null);
  const [register] = useState<Register>(() => (entry: Feed) => {
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
      // A stream that starts without an id begins at "now": what changed since the server rendered the page is fetched once.
      onOpen: (resumed) => {
        if (!resumed) cache.refetchAll();
      },
    });
    connection.lastId = feed.after;
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

/**
 * Keeps this page's data live through the shared stream, with the filters
 * given (null: no stream), from the feed id the page was rendered at.
 */
export function useLiveFeed(filter: LiveFilter | null, after: string | null): void {
  const register = useContext(FeedContext);
  const key = filter ? filterKey(filter) : null;
  const [stable, setStable] = useState(filter ? { filter, after } : null);
  if (key !== (stable ? filterKey(stable.filter) : null)) setStable(filter ? { filter, after } : null);
  useEffect(() => {
    if (!register || !stable) return;
    return register(stable);
  }, [register, stable]);
}
