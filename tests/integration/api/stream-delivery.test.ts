import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendChanges, insertOffers, recordFills } from "../../../lib/db/writes/index";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture } from "../../helpers/fixtures";
import { startWebServer, webMetric as metric, type WebServer } from "../../helpers/server";
import { openStream, type StreamReader } from "../../helpers/sse";
import { waitFor } from "../../helpers/worker";
import { floodBesideAStalledReader, floodOffer, FLOOD_EVENTS } from "./stalled-reader";

// Delivery guarantees of GET /v1/stream across processes: every web process
// serves the same sequence, a client resuming on a restarted process loses
// and repeats nothing, a dropped LISTEN connection loses nothing, and a
// reader that stops reading is cut off and nothing of it is kept.

let database: TestDatabase;
const servers: WebServer[] = [];
const readers: StreamReader[] = [];
const MAKER = addressOf("maker:delivery");

const sql = () => database.db.$client;
const commit = (fn: (tx: postgres.TransactionSql) => Promise<unknown>) => sql().begin(fn);

async function web(env: Record<string, string> = {}): Promise<WebServer> {
  const server = await startWebServer({ DATABASE_URL: database.url, RATE_LIMIT_RPM: "0", ...env });
  servers.push(server);
  return server;
}

async function stream(server: WebServer, query = "", headers: Record<string, string> = {}): Promise<StreamReader> {
  const reader = await openStream(server.baseUrl, `/v1/stream${query}`, headers);
  readers.push(reader);
  return reader;
}

let n = 0;
/** An offer created and taken, as the worker commits them: three events. */
async function activity(): Promise<string> {
  const offer = offerFixture(`delivery-${n++}`, { maker: MAKER });
  const fill = fillFixture(`delivery-take-${n++}`, offer.pda, { slot: BigInt(5000 + n) });
  await commit(async (tx) => {
    await insertOffers(tx, [offer]);
    await appendChanges(tx, [{ kind: "offer", pda: offer.pda }]);
  });
  await commit(async (tx) => {
    await recordFills(tx, [fill]);
    await appendChanges(tx, [
      { kind: "fill", signature: fill.signature, ixIndex: 0 },
      { kind: "offer", pda: offer.pda },
    ]);
  });
  return offer.pda;
}

const logged = async (after = 0n) =>
  (await sql()`select id::text, kind, payload from feed_events where id > ${after.toString()}::bigint and kind <> 'candle' order by feed_events.id`).map(
    (r) => `${r.id}:${r.kind}:${r.payload}`,
  );
const seen = (r: StreamReader) => r.events.map((e) => `${e.id}:${e.event}:${e.data}`);

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const r of readers) r.close();
  for (const s of servers) await s.stop();
  await database?.drop();
});

describe("stream delivery", () => {
  it("delivers the identical sequence from two web processes, and it is the log's", async () => {
    const [a, b] = [await web(), await web()];
    const start = BigInt((await sql()`select coalesce(max(id), 0)::text as id from feed_events`)[0]!.id);
    const [ra, rb] = [await stream(a), await stream(b)];
    for (let i = 0; i < 5; i++) await activity();
    await ra.waitForCount(15);
    await rb.waitForCount(15);
    expect(seen(ra)).toEqual(seen(rb));
    expect(seen(ra)).toEqual(await logged(start));
    ra.close();
    rb.close();
    for (const s of servers.splice(0)) await s.stop();
  });

  it("resumes with Last-Event-ID on a restarted web process: nothing lost, nothing twice", async () => {
    const start = BigInt((await sql()`select coalesce(max(id), 0)::text as id from feed_events`)[0]!.id);
    const first = await web();
    const before = await stream(first);
    await activity();
    await activity();
    await before.waitForCount(6);
    await first.stop(); // the stream ends with the process
    await before.ended;
    await activity(); // committed while no web process runs
    const second = await web();
    const after = await stream(second, "", { "last-event-id": before.events.at(-1)!.id! });
    await activity();
    await after.waitForCount(6);
    expect([...seen(before), ...seen(after)]).toEqual(await logged(start));
  });

  it("loses nothing when the LISTEN connection drops: the hub reads the log again on reconnect", async () => {
    const server = servers.at(-1)!;
    const start = BigInt((await sql()`select coalesce(max(id), 0)::text as id from feed_events`)[0]!.id);
    const reader = await stream(server);
    const [row] = await sql()`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and application_name = 'offer-book-web' and query ilike 'listen%'`;
    expect(row!.n).toBe(1);
    await activity(); // committed while the hub reconnects: its notification is lost
    await activity();
    await reader.waitForCount(6);
    expect(seen(reader)).toEqual(await logged(start));
  });

  it("serves a reader that falls behind from the log, cuts off one that never reads, and keeps nothing of it", async () => {
    const server = await web({ STREAM_QUEUE_BYTES: "65536", STREAM_STALL_MS: "2000" });
    const pda = await floodOffer(sql());
    // The reader that keeps up gets every event, in order, none twice, served from the log (each commit is far
    // over its 64 KiB queue); the stalled one is cut off, and every stream's state (its hub subscription,
    // its buffer, its slot) goes with it: the open-stream gauge is released in the same step. The process's
    // memory over many such floods is `npm run bench:stream`'s to print.
    const round = await floodBesideAStalledReader(server, sql(), pda, 0);
    expect(round.ids).toHaveLength(FLOOD_EVENTS);
    expect(round.ids.every((id, i) => i === 0 || id === round.ids[i - 1]! + 1n)).toBe(true);
    expect(round.cutOffs).toBe(1);
    expect(round.streamsOpen).toBe(1);
    await waitFor(async () => (await metric(server, "offer_book_streams_open")) === 0, 60_000, () => "the stream that kept up was not released");
  });
});
