import { expect } from "vitest";
import { ask, comparable, type Seen } from "../../helpers/parity";

// The answers of one web process of the scale topology and nginx's in front
// of it compared (tests/helpers/parity.ts asks), less what the proxy
// legitimately owns. Date and framing are left out by ask() already (the
// connection's). Besides them:
// - `server`: nginx names itself; the web process sends none;
// - `x-cache-status`: the proxy's report of its own cache (HIT, MISS...);
// - `ratelimit-*`: a client's budget is its own, and an answer from the
//   shared cache must not carry the figures of the client that filled it:
//   nginx drops them on every cached location (asserted here: absent through
//   the proxy; that the web process sends them, in the cache test of
//   topology.test.ts). /v1/stream, never cached,
//   passes them: there they are compared like any header, as numbers;
// - `x-accel-buffering: no`, which the web process sends on the stream to
//   the proxy in front (nginx reads it, stops buffering and drops it);
// - `accept-encoding` in Vary: nginx compresses (gzip_vary), so it is the one
//   that varies on it; with `accept-encoding: gzip` asked, `content-encoding`
//   and the ETag's weak form (nginx weakens a tag on a body it recompresses)
//   are its too, and the body is compared decoded.
// A 304 nginx makes from its cache (X-Cache-Status HIT) is compared like any
// answer: it sends what the web process's own 304 sends.

const PROXY_ONLY = ["server", "x-cache-status"];
const BUDGET = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"];

function withoutAcceptEncoding(vary: string | undefined): string | undefined {
  if (vary === undefined) return undefined;
  const names = vary.split(",").map((n) => n.trim()).filter((n) => n && n.toLowerCase() !== "accept-encoding");
  return names.length ? names.join(", ") : undefined;
}

function normalized(seen: Seen, side: "proxy" | "web", cachedLocation: boolean): Seen {
  const headers = { ...seen.headers };
  if (side === "proxy") for (const name of PROXY_ONLY) delete headers[name];
  else delete headers["x-accel-buffering"];
  if (cachedLocation) {
    if (side === "proxy") expect(BUDGET.filter((h) => h in headers), "budget headers through the shared cache").toEqual([]);
    for (const name of BUDGET) delete headers[name];
  }
  const vary = withoutAcceptEncoding(headers.vary);
  if (vary === undefined) delete headers.vary;
  else headers.vary = vary;
  if (side === "proxy" && headers["content-encoding"] === "gzip") {
    delete headers["content-encoding"];
    if (headers.etag) headers.etag = headers.etag.replace(/^W\//, "");
  }
  return comparable({ ...seen, headers });
}

const same = (a: Seen, b: Seen) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Asks the web process, then nginx, then the web process again, and expects
 * nginx's answer to be one of the two less what the proxy owns: the chain is
 * paused, but an offer's expiry (the clock's) may fall between two requests.
 */
export async function expectSameThroughProxy(proxyUrl: string, webUrl: string, target: string, method = "GET", headers: Record<string, string> = {}): Promise<Seen> {
  const cachedLocation = !target.startsWith("/v1/stream");
  const first = normalized(await ask(webUrl, target, method, headers), "web", cachedLocation);
  const raw = await ask(proxyUrl, target, method, headers);
  const proxied = normalized(raw, "proxy", cachedLocation);
  const second = normalized(await ask(webUrl, target, method, headers), "web", cachedLocation);
  const direct = same(proxied, first) ? first : second;
  expect(proxied, `${method} ${target} through nginx`).toEqual(direct);
  return raw;
}

/** The stream's opening frame through nginx and straight from a web process. */
export async function expectSameStreamOpening(proxyUrl: string, webUrl: string, target: string): Promise<Seen> {
  const viaWeb = normalized(await ask(webUrl, target, "GET", {}, true), "web", false);
  const raw = await ask(proxyUrl, target, "GET", {}, true);
  expect(normalized(raw, "proxy", false)).toEqual(viaWeb);
  return raw;
}
