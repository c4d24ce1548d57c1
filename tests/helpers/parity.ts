import { request } from "node:http";
import { gunzipSync } from "node:zlib";

// Asking two servers the same /v1 questions and comparing what they say:
// tests/integration/api/launcher-parity.test.ts (the launcher against `next
// start`) and tests/integration/scale/topology.test.ts (nginx against one web
// process behind it). The request set is here once, over the ids of whatever
// data the servers hold.

/** How the body is framed (content-length or chunked, keep-alive) and when it was sent: the connection's, not the answer's. */
export const FRAMING = new Set(["date", "content-length", "transfer-encoding", "connection", "keep-alive"]);

export interface Seen {
  status: number;
  headers: Record<string, string>;
  /** The body as text; a gzip-encoded one decoded (its content-encoding kept in headers). */
  body: string;
}

/**
 * Next adds the router's own names (rsc, next-router-*) to every Vary it
 * sends, which no API client sends and the launcher, having no router, does
 * not name.
 */
const withoutRouterNames = (vary: string) =>
  vary
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "rsc" && !name.startsWith("next-router-"))
    .join(", ");

/** One request over a fresh connection, with exactly the headers given (no accept-encoding unless asked). */
export function ask(baseUrl: string, target: string, method = "GET", headers: Record<string, string> = {}, firstBytesOnly = false): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${target}`, { method, headers: { connection: "close", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      const seen = () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (!FRAMING.has(name)) kept[name] = String(value);
        if (kept.vary !== undefined) kept.vary = withoutRouterNames(kept.vary);
        if (kept.vary === "") delete kept.vary;
        const raw = Buffer.concat(chunks);
        const body = (kept["content-encoding"] === "gzip" && raw.length > 0 ? gunzipSync(raw) : raw).toString("utf8");
        return { status: res.statusCode!, headers: kept, body };
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        // The stream's opening frame ends with a blank line; then this side closes.
        if (firstBytesOnly && Buffer.concat(chunks).includes("\n\n")) {
          resolve(seen());
          req.destroy();
        }
      });
      res.on("end", () => resolve(seen()));
      res.on("error", reject);
    });
    req.on("error", (error) => (firstBytesOnly ? undefined : reject(error)));
    req.end();
  });
}

/**
 * The budget's running figures (requests left, seconds to the window's end)
 * are each process's own count in its own one-minute windows: both sides
 * must send them, as numbers, not the same numbers.
 */
export function comparable(seen: Seen): Seen {
  const headers = { ...seen.headers };
  for (const name of ["ratelimit-remaining", "ratelimit-reset"]) if (headers[name] !== undefined) headers[name] = /^\d+$/.test(headers[name]!) ? "<n>" : headers[name]!;
  return { ...seen, headers };
}

/** The ids the request set asks about: one offer and its maker, pair and payment mint, and an offer that does not exist. */
export interface ParityIds {
  offerPda: string;
  maker: string;
  tokenMint: string;
  paymentMint: string;
  unknownOffer: string;
}

/**
 * A large answer (some 190 KB, sent as bytes: web/http/response.ts,
 * LARGE_BODY_CHARS): every minute of a day long after the pair's one fill,
 * each carrying its close; a fixed toTime, so that it does not move between the two asks.
 */
const LARGE_ANSWER = (tokenMint: string, paymentMint: string) =>
  `/v1/candles?tokenMint=${tokenMint}&paymentMint=${paymentMint}&resolution=1m&limit=1440&includeEmpty=true&toTime=4102444800`;

/** What both servers are asked, and the status each must answer with. */
export function parityRequests(ids: ParityIds) {
  const { offerPda, maker, tokenMint, paymentMint, unknownOffer } = ids;
  return {
    /** 200s. */
    answers: [
      "/v1",
      "/v1/stats",
      "/v1/markets",
      "/v1/offers",
      "/v1/offers?limit=1&status=open",
      `/v1/offers/${offerPda}`,
      `/v1/offers/${offerPda}/fills`,
      "/v1/fills",
      `/v1/fills?maker=${maker}`,
      "/v1/makers",
      "/v1/makers?window=7d&sort=offers",
      `/v1/makers/${maker}/stats`,
      `/v1/makers/${maker}/stats?window=7d`,
      `/v1/makers/${maker}/offers`,
      `/v1/wallets/${maker}/trades`,
      `/v1/book?tokenMint=${tokenMint}&paymentMint=${paymentMint}`,
      `/v1/candles?tokenMint=${tokenMint}&paymentMint=${paymentMint}&resolution=1h`,
      LARGE_ANSWER(tokenMint, paymentMint),
      "/v1/openapi.json",
    ],
    /** HEAD: the GET's headers, no body. */
    head: ["/v1/stats", `/v1/offers/${offerPda}`, LARGE_ANSWER(tokenMint, paymentMint)],
    preflight: { target: "/v1/offers", headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" } },
    refusals: [
      { target: "/v1/offers?limit=abc", method: "GET", status: 400 },
      { target: "/v1/offers?status=nope", method: "GET", status: 400 },
      { target: "/v1/offers/not-an-address", method: "GET", status: 400 },
      { target: `/v1/candles?paymentMint=${paymentMint}`, method: "GET", status: 400 },
      { target: "/v1/fills?cursor=AAAA", method: "GET", status: 400 },
      { target: `/v1/offers/${unknownOffer}`, method: "GET", status: 404 },
      { target: "/v1/nowhere/at/all", method: "GET", status: 404 },
      { target: "/v1/stats", method: "POST", status: 405 },
      { target: "/v1/offers", method: "DELETE", status: 405 },
    ],
    /** Answered 304 for their current tag, plain or weak, GET or HEAD. */
    revalidated: ["/v1/stats", `/v1/offers/${offerPda}`, "/v1/fills"],
    stream: "/v1/stream?types=fill",
    streamRefused: "/v1/stream?types=nope",
    csv: ["/v1/fills?format=csv", "/v1/offers?format=csv", `/v1/wallets/${maker}/trades?format=csv`],
  };
}
