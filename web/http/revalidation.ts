import { ifNoneMatchHits } from "./response";

/**
 * Answers a revalidation (If-None-Match) with 304 without running the route
 * again, when nothing the answer is made of can have changed since it was
 * made: the ETag is the one this process issued for the same URL, the live
 * feed has announced no change since (every write of the index goes through
 * it: fills, offer changes, lapses, rollbacks), and the answer is younger
 * than its cache policy lets any cache reuse it unchecked (freshness plus
 * stale-while-revalidate), which bounds what the feed cannot see: answers
 * that change with the clock (expiry before the lapse job flags it, the 24-hour
 * windows) and the token provider's data. Without the feed (not yet listening)
 * every request runs the route, as before. A request's own Cache-Control is
 * not consulted: fetch() adds `no-cache` to every request that carries
 * If-None-Match, and the feed is this origin's own validation.
 *
 * One memo serves the process (on globalThis, like the metrics): the API core
 * (web/http/api.ts) remembers answers and looks revalidations up before the
 * endpoint runs, whether the launcher or a Next route handler carried the
 * request, so that a 304 costs a map look-up.
 */

export interface Revalidated {
  etag: string;
  cache: string;
  /** The route's pattern, for the metrics of an answer made without it. */
  route: string;
}

interface Entry extends Revalidated {
  /** The feed's change count when the route began making the answer. */
  changes: number;
  /** Until when (ms since the epoch) the answer may be vouched for. */
  until: number;
}

const reuseByPolicy = new Map<string, number>();

/** The longest a cache may hand out an answer under this policy without a new one, in seconds; 0 for no-store/no-cache. */
export function reuseSeconds(policy: string): number {
  let seconds = reuseByPolicy.get(policy);
  if (seconds === undefined) reuseByPolicy.set(policy, (seconds = parseReuseSeconds(policy))); // a handful of policies (CACHE)
  return seconds;
}

function parseReuseSeconds(policy: string): number {
  if (/\b(no-store|no-cache|private)\b/.test(policy)) return 0;
  const directive = (name: string) => {
    const match = new RegExp(`\\b${name}=(\\d+)`).exec(policy);
    return match ? Number(match[1]) : undefined;
  };
  return (directive("s-maxage") ?? directive("max-age") ?? 0) + (directive("stale-while-revalidate") ?? 0);
}

export class RevalidationMemo {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly capacity = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer to vouch for, if the client's tag is the current one and nothing changed since. */
  lookup(key: string, ifNoneMatch: string, changes: number): Revalidated | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.changes !== changes || entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return ifNoneMatchHits(ifNoneMatch, entry.etag) ? { etag: entry.etag, cache: entry.cache, route: entry.route } : undefined;
  }

  /** Keeps an answer made while the feed stood at `changes` (read before the route ran). */
  remember(key: string, answer: Revalidated, changes: number): void {
    const seconds = reuseSeconds(answer.cache);
    if (seconds <= 0) return;
    const until = this.now() + seconds * 1000;
    const entry = this.entries.get(key);
    this.entries.delete(key); // re-inserted last: the oldest entries go first when full
    // The same answer again (the common case): its entry renewed, not a new one per request (less for the collector).
    if (entry && entry.etag === answer.etag && entry.cache === answer.cache && entry.route === answer.route) {
      entry.changes = changes;
      entry.until = until;
      this.entries.set(key, entry);
    } else this.entries.set(key, { etag: answer.etag, cache: answer.cache, route: answer.route, changes, until });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

const holder = globalThis as typeof globalThis & { __offerBookRevalidation?: RevalidationMemo };

/** The process's one memo, whichever bundle asks first. */
export function processRevalidationMemo(): RevalidationMemo {
  return (holder.__offerBookRevalidation ??= new RevalidationMemo(50_000));
}
