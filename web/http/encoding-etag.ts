/**
 * A strong ETag names one representation's exact bytes (RFC 9110 8.8.3): the
 * gzip body sent to a client that accepts it is another representation than
 * the identity body, so it gets its own tag, the identity tag with the coding
 * appended inside the quotes (`"abc"` → `"abc-gzip"`; web/http/node-writer.ts
 * makes it). If-None-Match accepts either form (response.ts,
 * ifNoneMatchHits), and a 304 repeats the form the client named, which is
 * the one it holds.
 */

/** The coded form of `etag` (`"abc-gzip"`) that If-None-Match names, or undefined for the identity form. */
export function codedTagNamed(etag: string, ifNoneMatch: string | undefined): string | undefined {
  if (!ifNoneMatch) return undefined;
  const stem = etag.slice(0, -1);
  for (const coding of ["gzip", "deflate", "br"]) if (ifNoneMatch.includes(`${stem}-${coding}"`)) return `${stem}-${coding}"`;
  return undefined;
}
