import { env } from "../platform/env";
import { database, logger } from "./services";
import { throttledReport } from "../lib/resilience/throttled-report";
import { ClientSlots } from "../lib/feed/client-slots";
import { FeedHub } from "../lib/feed/hub";

// The web process's one hub and its per-client stream count, kept on
// globalThis: Next loads server modules in several bundles, each with its own
// copy of this file, and there must be one LISTEN connection per process.

interface ProcessFeed {
  hub: FeedHub;
  slots: ClientSlots;
}

const holder = globalThis as typeof globalThis & { __offerBookFeed?: ProcessFeed };

const reportReadFailure = throttledReport(30_000, (error: unknown, _context: "feed", suppressed: number) =>
  logger.warn({ error: (error as Error)?.message ?? String(error), suppressed }, "live feed: reading the event log failed; retrying"),
);

export function processFeed(): ProcessFeed {
  return (holder.__offerBookFeed ??= {
    hub: new FeedHub(database().$client, { onError: (error) => reportReadFailure(error, "feed") }),
    slots: new ClientSlots(env().STREAM_MAX_PER_CLIENT),
  });
}
