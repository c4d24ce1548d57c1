import net from "node:net";
import type postgres from "postgres";
import { appendChanges, insertOffers, type FeedChange } from "../../../lib/db/writes/index";
import { addressOf, offerFixture } from "../../helpers/fixtures";
import { webMetric as metric, type WebServer } from "../../helpers/server";
import { openStream } from "../../helpers/sse";
import { waitFor } from "../../helpers/worker";

// A flood of feed events beside a socket that sends its stream request and
// then never reads a byte, on a web process started with a small stream queue
// (STREAM_QUEUE_BYTES) and stall bound (STREAM_STALL_MS). Shared by the
// delivery suite (one round, its outcome asserted) and `npm run bench:stream`
// (many rounds, the web process's memory after each printed).

/** Events per flood: about 30 MB of frames, far more than the socket buffers and a 64 KiB queue. */
export const FLOOD_EVENTS = 40_000;
const PER_COMMIT = 5_000;

/** An offer whose changes make up the floods (each change is one event). */
export async function floodOffer(sql: postgres.Sql): Promise<string> {
  const offer = offerFixture(`flood-${Date.now()}-${Math.random()}`, { maker: addressOf("maker:flood") });
  await sql.begin((tx) => insertOffers(tx, [offer]));
  return offer.pda;
}

/** Commits `events` changes of the offer, in bursts of 5,000 (3.5 MB) per commit: each far over the queue. */
export async function flood(sql: postgres.Sql, pda: string, events = FLOOD_EVENTS): Promise<void> {
  for (let i = 0; i < events; i += PER_COMMIT) {
    const changes: FeedChange[] = Array.from({ length: Math.min(PER_COMMIT, events - i) }, () => ({ kind: "offer", pda }));
    await sql.begin((tx) => appendChanges(tx, changes));
  }
}

export interface StalledRound {
  /** The ids the reader that keeps up received, in arrival order. */
  ids: bigint[];
  /** offer_book_stream_cut_offs_total once the stalled reader was cut off. */
  cutOffs: number;
  /** offer_book_streams_open then: the reader that keeps up, and nothing of the stalled one. */
  streamsOpen: number;
}

/** One flood beside a stalled reader; resolves once the stalled one is cut off (the counter passes `cutOffsBefore`). */
export async function floodBesideAStalledReader(server: WebServer, sql: postgres.Sql, pda: string, cutOffsBefore: number): Promise<StalledRound> {
  const stalled = net.connect(Number(new URL(server.baseUrl).port), "127.0.0.1");
  const reader = await (async () => {
    await new Promise((r) => stalled.once("connect", r));
    stalled.write(`GET /v1/stream HTTP/1.1\r\nhost: x\r\naccept: text/event-stream\r\n\r\n`);
    stalled.pause();
    return openStream(server.baseUrl, "/v1/stream");
  })();
  try {
    await waitFor(async () => (await metric(server, "offer_book_streams_open")) === 2, 60_000, () => "the streams did not open");
    await flood(sql, pda);
    await reader.waitForCount(FLOOD_EVENTS, 120_000);
    let cutOffs = cutOffsBefore;
    await waitFor(async () => (cutOffs = await metric(server, "offer_book_stream_cut_offs_total")) > cutOffsBefore, 60_000, () => "the stalled reader was not cut off");
    return { ids: reader.events.map((e) => BigInt(e.id!)), cutOffs, streamsOpen: await metric(server, "offer_book_streams_open") };
  } finally {
    reader.close();
    stalled.destroy();
  }
}
