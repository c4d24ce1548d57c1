import type postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  appendChanges,
  appendOfferRows,
  appendRevocations,
  endOffers,
  insertOffers,
  markLapsedOffers,
  pruneFeed,
  recordFills,
  recordScannedTransactions,
  revocationOf,
  undoTransaction,
  type NewFill,
  type NewOffer,
} from "../../../lib/db/writes";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, signatureOf, USDC, USDT } from "../../helpers/fixtures";
import { startWebServer, webMetric, type WebServer } from "../../helpers/server";
import { openStream, type StreamReader } from "../../helpers/sse";

// GET /v1/stream over real HTTP and PostgreSQL. Changes are written the way
// the worker writes them (the store's functions, the feed's appends in the
// same transaction); what the stream sends must be byte for byte what the
// API serves for the same rows.

let database: TestDatabase;
let server: WebServer;
const open: StreamReader[] = [];

const TOKEN_A = addressOf("token:stream-a");
const TOKEN_B = addressOf("token:stream-b");
const MAKER_1 = addressOf("maker:stream-1");
const MAKER_2 = addressOf("maker:stream-2");

const sql = () => database.db.$client;
const commit = (fn: (tx: postgres.TransactionSql) => Promise<unknown>) => sql().begin(fn);

let labels = 0;
async function createOffer(overrides: Partial<NewOffer> = {}): Promise<NewOffer> {
  const offer = offerFixture(`stream-${labels++}`, { tokenMint: TOKEN_A, maker: MAKER_1, ...overrides });
  await commit(async (tx) => {
    await insertOffers(tx, [offer]);
    await recordScannedTransactions(tx, [{ signature: offer.createdSignature!, slot: offer.lastSlot, blockTime: null, failed: false, offerPdas: [offer.pda] }]);
    await appendChanges(tx, [{ kind: "offer", pda: offer.pda, signature: offer.createdSignature! }]);
  });
  return offer;
}

let slot = 1000n;
async function take(offer: NewOffer, fillAmount = 1000n): Promise<NewFill> {
  const fill = fillFixture(`stream-take-${labels++}`, offer.pda, { fillAmount, slot: slot++ });
  await commit(async (tx) => {
    await recordFills(tx, [fill]);
    await recordScannedTransactions(tx, [{ signature: fill.signature, slot: fill.slot, blockTime: fill.blockTime, failed: false, offerPdas: [offer.pda] }]);
    await appendChanges(tx, [
      { kind: "fill", signature: fill.signature, ixIndex: fill.ixIndex },
      { kind: "offer", pda: offer.pda, signature: fill.signature },
    ]);
  });
  return fill;
}

/** What the worker's finality step does for a transaction the cluster dropped. */
async function undo(signature: string): Promise<void> {
  await commit(async (tx) => {
    const revocation = (await revocationOf(tx, signature))!;
    await undoTransaction(tx, signature);
    await appendRevocations(tx, [revocation]);
    await appendOfferRows(tx, revocation.offerPdas);
  });
}

async function stream(query = "", headers: Record<string, string> = {}): Promise<StreamReader> {
  const reader = await openStream(server.baseUrl, `/v1/stream${query}`, headers);
  open.push(reader);
  return reader;
}

const newestId = async () => (await sql()`select coalesce(max(id), 0)::text as id from feed_events`)[0]!.id as string;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startWebServer({ DATABASE_URL: database.url, STREAM_MAX_PER_CLIENT: "6", RATE_LIMIT_RPM: "0" });
});

afterEach(async () => {
  for (const reader of open.splice(0)) reader.close();
  // The server sees them go (each client's open-stream count is capped).
  await vi.waitFor(async () => expect(await webMetric(server, "offer_book_streams_open")).toBe(0), { timeout: 60_000, interval: 50 });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("GET /v1/stream", () => {
  it("opens as an unbuffered, uncompressed event stream with a comment, retry: and the current id", async () => {
    const head = await newestId();
    const reader = await stream("", { "accept-encoding": "gzip, br" });
    expect(reader.status).toBe(200);
    expect(reader.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(reader.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(reader.headers.get("x-accel-buffering")).toBe("no");
    expect(reader.headers.get("content-encoding")).toBeNull();
    const offer = await createOffer();
    const event = await reader.waitFor((e) => e.event === "offer");
    expect(JSON.parse(event.data).pda).toBe(offer.pda);
    expect(reader.raw()).toMatch(new RegExp(`^: [^\\n]*\\nretry: \\d+\\n\\nid: ${head}\\n\\n`));
    reader.close();
  });

  it("sends fill and offer events byte-identical to /v1/fills and /v1/offers/:pda, ids strictly increasing", async () => {
    const reader = await stream();
    const offer = await createOffer({ maker: MAKER_2 });
    const fill = await take(offer, 250_000n);
    const events = await reader.waitForCount(3);
    expect(events.map((e) => e.event)).toEqual(["offer", "fill", "offer"]);
    const ids = events.map((e) => BigInt(e.id!));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);

    const fillsPage = await (await server.get(`/v1/fills?offerPda=${offer.pda}`)).text();
    const served = fillsPage.slice(fillsPage.indexOf("[") + 1, fillsPage.lastIndexOf("]"));
    expect(events[1]!.data).toBe(served);
    expect(JSON.parse(events[1]!.data)).toMatchObject({ signature: fill.signature, maker: MAKER_2, ixIndex: 0, fillAmount: "250000" });
    expect(events[2]!.data).toBe(await (await server.get(`/v1/offers/${offer.pda}`)).text());
    expect(JSON.parse(events[2]!.data).remainingSize).toBe("750000");
  });

  it("tells cancel and expiry (the crank, and an open offer passing its expiry) as offer events", async () => {
    const reader = await stream(`?types=offer&maker=${MAKER_2}`);
    const cancelled = await createOffer({ maker: MAKER_2 });
    const lapsing = await createOffer({ maker: MAKER_2, expiresAt: new Date(Date.now() + 1500) });
    await commit(async (tx) => {
      await endOffers(tx, [{ pda: cancelled.pda, state: "cancelled", slot: slot++, signature: signatureOf("cancel") }]);
      await appendChanges(tx, [{ kind: "offer", pda: cancelled.pda, signature: signatureOf("cancel") }]);
    });
    await reader.waitFor((e) => JSON.parse(e.data).pda === cancelled.pda && JSON.parse(e.data).status === "cancelled");
    // The lapse job flags it once its expiry has passed (until then it finds nothing to flag).
    await vi.waitFor(async () => expect(await markLapsedOffers(sql())).toBe(1), { timeout: 60_000, interval: 100 });
    const expired = await reader.waitFor((e) => JSON.parse(e.data).pda === lapsing.pda && JSON.parse(e.data).status === "expired");
    expect(expired.data).toBe(await (await server.get(`/v1/offers/${lapsing.pda}`)).text());
  });

  it("sends a revoke { signature, slot } then the restored offer when a transaction is undone", async () => {
    const offer = await createOffer();
    const fill = await take(offer, 400_000n);
    const reader = await stream(`?offerPda=${offer.pda}`);
    await undo(fill.signature);
    const [revoke, restored] = await reader.waitForCount(2);
    expect(revoke!.event).toBe("revoke");
    expect(JSON.parse(revoke!.data)).toEqual({ signature: fill.signature, slot: fill.slot.toString() });
    expect(restored!.event).toBe("offer");
    expect(JSON.parse(restored!.data).remainingSize).toBe("1000000");
    expect(restored!.data).toBe(await (await server.get(`/v1/offers/${offer.pda}`)).text());
  });

  it("delivers to each filter only its events: tokenMint, paymentMint, maker, offerPda, types", async () => {
    const readers = {
      tokenB: await stream(`?tokenMint=${TOKEN_B}`),
      usdt: await stream(`?paymentMint=${USDT}&types=fill`),
      maker2: await stream(`?maker=${MAKER_2}&tokenMint=${TOKEN_B}`),
    };
    const a = await createOffer({ tokenMint: TOKEN_A, paymentMint: USDC, maker: MAKER_1 });
    const b = await createOffer({ tokenMint: TOKEN_B, paymentMint: USDT, maker: MAKER_2 });
    const byPda = await stream(`?offerPda=${a.pda}&types=fill,revoke`);
    const fa = await take(a);
    const fb = await take(b);
    await undo(fa.signature);
    const end = await createOffer({ tokenMint: TOKEN_B, paymentMint: USDT, maker: MAKER_2 }); // a marker: every B reader sees it last

    const pdaOf = (e: { event?: string; data: string }) => (e.event === "revoke" ? JSON.parse(e.data).signature : JSON.parse(e.data).pda ?? JSON.parse(e.data).offerPda);
    await readers.tokenB.waitFor((e) => pdaOf(e) === end.pda);
    await readers.maker2.waitFor((e) => pdaOf(e) === end.pda);
    await byPda.waitFor((e) => e.event === "revoke");
    await readers.usdt.waitFor((e) => e.event === "fill");
    const seen = (r: StreamReader) => r.events.map((e) => `${e.event}:${pdaOf(e)}`);

    const bSequence = [`offer:${b.pda}`, `fill:${b.pda}`, `offer:${b.pda}`, `offer:${end.pda}`];
    expect(seen(readers.tokenB)).toEqual(bSequence);
    expect(seen(readers.maker2)).toEqual(bSequence);
    expect(seen(readers.usdt)).toEqual([`fill:${fb.offerPda}`]);
    expect(seen(byPda)).toEqual([`fill:${a.pda}`, `revoke:${fa.signature}`]);
  });

  it("resumes after Last-Event-ID (or ?after=) with every later matching event, once, in order, then live", async () => {
    const live = await stream();
    const first = await createOffer();
    const mark = await live.waitFor((e) => JSON.parse(e.data).pda === first.pda);
    const second = await createOffer({ tokenMint: TOKEN_B });
    const third = await createOffer();
    await take(third);
    await live.waitForCount(live.events.indexOf(mark) + 5);
    const expected = live.events.slice(live.events.indexOf(mark) + 1).map((e) => `${e.id}:${e.event}:${e.data}`);

    const byHeader = await stream("", { "last-event-id": mark.id! });
    const byQuery = await stream(`?after=${mark.id}`);
    // An EventSource reconnecting keeps its URL's ?after= and sends the header: the header wins.
    const both = await stream(`?after=1`, { "last-event-id": mark.id! });
    const filtered = await stream(`?after=${mark.id}&tokenMint=${TOKEN_B}`);
    const fourth = await createOffer();
    for (const r of [byHeader, byQuery, both]) {
      await r.waitFor((e) => JSON.parse(e.data).pda === fourth.pda);
      expect(r.events.slice(0, expected.length).map((e) => `${e.id}:${e.event}:${e.data}`)).toEqual(expected);
      expect(r.events).toHaveLength(expected.length + 1);
    }
    await filtered.waitFor(() => true);
    expect(filtered.events.map((e) => JSON.parse(e.data).pda)).toEqual([second.pda]);
  });

  it("answers a resume id older than the retention, or unknown, with one reset event and then the live feed", async () => {
    await createOffer();
    const before = BigInt(await newestId());
    expect(await pruneFeed(sql(), new Date(Date.now() + 60_000), 100_000)).toBeGreaterThan(0);
    const pruned = await stream("", { "last-event-id": "1" });
    const unknown = await stream(`?after=${before + 1_000_000n}`);
    const next = await createOffer();
    for (const r of [pruned, unknown]) {
      await r.waitFor((e) => e.event === "offer");
      expect(r.events.map((e) => e.event)).toEqual(["reset", "offer"]);
      expect(JSON.parse(r.events[0]!.data).reason).toMatch(/refetch/);
      expect(JSON.parse(r.events[1]!.data).pda).toBe(next.pda);
    }
  });

  it("refuses bad parameters with the usual 400 JSON before any stream", async () => {
    const cases: [string, Record<string, string>, string][] = [
      ["?tokenMint=nope", {}, "tokenMint"],
      ["?paymentMint=0OIl", {}, "paymentMint"],
      ["?maker=abc", {}, "maker"],
      ["?offerPda=x", {}, "offerPda"],
      ["?types=fill,trade", {}, "types"],
      ["?types=,", {}, "types"],
      ["?after=-3", {}, "after"],
      ["?after=12abc", {}, "after"],
      ["", { "last-event-id": "yesterday" }, "Last-Event-ID"],
    ];
    for (const [query, headers, param] of cases) {
      const { status, headers: h, body } = await server.json(`/v1/stream${query}`, { headers });
      expect({ query, status, param: body.param, code: body.code }).toEqual({ query, status: 400, param, code: "invalid_parameter" });
      expect(h.get("content-type")).toMatch(/^application\/json/);
    }
  });

  it("refuses a client over its open-stream cap with 429 JSON, and serves it again once one closes", async () => {
    const held = [];
    for (let i = 0; i < 6; i++) held.push(await stream());
    const { status, headers, body } = await server.json("/v1/stream");
    expect(status).toBe(429);
    expect(body.code).toBe("rate_limited");
    expect(headers.get("retry-after")).toBe("5");
    held[0]!.close();
    await vi.waitFor(async () => expect(await webMetric(server, "offer_book_streams_open")).toBe(5), { timeout: 60_000, interval: 50 });
    const again = await stream();
    expect(again.status).toBe(200);
    for (const r of held) r.close();
  });
});
