import type { OutgoingHttpHeaders, ServerResponse } from "node:http";

/**
 * A strong ETag names one representation's exact bytes (RFC 9110 8.8.3): the
 * gzip body Next sends a client that accepts it is another representation
 * than the identity body, so it gets its own tag, the identity tag with the
 * coding appended inside the quotes (`"abc"` → `"abc-gzip"`). If-None-Match
 * accepts either form (response.ts, ifNoneMatchHits), and a 304 repeats the
 * form the client named, which is the one it holds.
 *
 * Next compresses after the route has answered (its `compression` middleware
 * sets content-encoding as the head is written), so the tag is rewritten at
 * that moment: `res.writeHead` is wrapped before Next wraps it, and Next's
 * wrapper calls this one after choosing the coding.
 */
export function tagPerEncoding(res: ServerResponse, ifNoneMatch: string | undefined): void {
  const writeHead = res.writeHead;
  const patched = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((a, i) => i > 0 && a !== null && typeof a === "object" && !Array.isArray(a)) as OutgoingHttpHeaders | undefined;
    const etag = (headers?.etag ?? res.getHeader("etag")) as string | undefined;
    if (typeof etag === "string" && etag.startsWith('"')) {
      const coding = codingOf(res, headers, Number(args[0]), etag, ifNoneMatch);
      if (coding) {
        const coded = `${etag.slice(0, -1)}-${coding}"`;
        if (headers?.etag !== undefined) headers.etag = coded;
        else res.setHeader("etag", coded);
      }
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  };
  res.writeHead = patched as typeof res.writeHead;
}

function codingOf(res: ServerResponse, headers: OutgoingHttpHeaders | undefined, status: number, etag: string, ifNoneMatch: string | undefined): string | undefined {
  const encoding = String(headers?.["content-encoding"] ?? res.getHeader("content-encoding") ?? "").trim().toLowerCase();
  if (encoding === "gzip" || encoding === "deflate" || encoding === "br") return encoding;
  if (status !== 304 || !ifNoneMatch) return undefined;
  // A 304 has no body to code: it names the form the client revalidated.
  const stem = etag.slice(0, -1);
  for (const coding of ["gzip", "deflate", "br"]) if (ifNoneMatch.includes(`${stem}-${coding}"`)) return coding;
  return undefined;
}
