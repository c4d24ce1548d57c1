import type { IncomingMessage, ServerResponse } from "node:http";

// Next marks every dynamic page `no-store`, and Chromium keeps no page so
// marked in its back/forward cache: Back then reloads, re-renders and
// re-lays out the page. The explorer's pages hold nothing personal (the
// wallet lives in the browser), so a page document is sent storable but
// revalidated on every fresh load: a navigation still asks the server, while
// Back and Forward restore the page as it was left.

export const PAGE_CACHE_CONTROL = "private, no-cache, max-age=0, must-revalidate";

/** A browser's request for a page's HTML document (not an API answer, an asset or a client-side navigation's RSC payload). */
export function isPageDocumentRequest(req: IncomingMessage): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.headers.rsc !== undefined || req.headers["next-router-prefetch"] !== undefined) return false;
  return (req.headers.accept ?? "").includes("text/html");
}

const storable = (value: unknown) => (typeof value === "string" && value.includes("no-store") ? PAGE_CACHE_CONTROL : value);

/** Rewrites a `no-store` Cache-Control, however Next sets it, to PAGE_CACHE_CONTROL. */
export function allowBackForwardCache(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => setHeader(name, name.toLowerCase() === "cache-control" ? (storable(value) as typeof value) : value);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const headers = args.find((a, i) => i > 0 && a !== null && typeof a === "object");
    if (headers && !Array.isArray(headers)) {
      for (const key of Object.keys(headers)) {
        if (key.toLowerCase() === "cache-control") (headers as Record<string, unknown>)[key] = storable((headers as Record<string, unknown>)[key]);
      }
    }
    return writeHead(...args);
  }) as typeof res.writeHead;
}
