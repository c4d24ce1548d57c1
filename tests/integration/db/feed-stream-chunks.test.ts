import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_CHANNEL } from "../../../lib/db/writes/feed";
import { FEED_EVENT_KINDS } from "../../../lib/db/schema/feed";
import { FeedHub } from "../../../lib/feed/hub";
import { openFeedStream } from "../../../lib/feed/stream";
import type { FeedFilter } from "../../../lib/feed/events";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// A stream writes what was committed together as one chunk: the events of a
// transaction reach a live reader in one write, whole or filtered, and a
// resuming reader's backlog page is one write too. With a thousand streams on
// a web process, one write per event per stream was most of a delivery's
// time (docs/scale.md, "Delivery").

let database: TestDatabase;
let sql: postgres.Sql;
let hub: FeedHub;
const ALL = new Set(FEED_EVENT_KINDS);
const decoder = new TextDecoder();
const closing: AbortController[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  sql = database.db.$client;
  hub = new FeedHub(sql);
});

afterAll(async () => {
  for (const c of closing) c.abort();
  await hub?.stop();
  await database?.drop();
});

/** Three events committed in one transaction (two by maker-a, one by maker-b), announced as the worker does; their ids. */
async function commitThree(): Promise<string[]> {
  return sql.begin(async (tx) => {
    const rows = await tx<{ id: string }[]>`insert into feed_events (kind, signature, slot, offer_pdas, makers, token_mints, payment_mints, payload)
      select 'offer', 'sig-' || i, i, array['offer-' || i], array[case when i = 2 then 'maker-b' else 'maker-a' end], array['token'], array['pay'], '{}'
      from generate_series(1, 3) i returning id::text`;
    const ids = rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b));
    await tx`select pg_notify(${FEED_CHANNEL}, ${ids.at(-1)!})`;
    return ids;
  });
}

async function open(filter: Partial<FeedFilter>, after: bigint | null): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const abort = new AbortController();
  closing.push(abort);
  const stream = await openFeedStream(hub, sql, {
    filter: { types: ALL, ...filter },
    after,
    retryMs: 1000,
    heartbeatMs: 3_600_000,
    queueBytes: 1 << 20,
    stallMs: 3_600_000,
    signal: abort.signal,
    onClose: () => {},
  });
  const reader = stream.getReader();
  await reader.read(); // the opening comment, retry and id
  return reader;
}

/** The ids of the events in the reader's next chunk. */
async function nextChunkIds(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string[]> {
  const { value } = await reader.read();
  return [...decoder.decode(value).matchAll(/^id: (\d+)\nevent: /gm)].map((m) => m[1]!);
}

describe("a stream's chunks", () => {
  it("writes a transaction's events to a live reader in one chunk, and a filtered reader's share in one chunk", async () => {
    const every = await open({}, null);
    const makerA = await open({ maker: "maker-a" }, null);
    const ids = await commitThree();
    expect(await nextChunkIds(every)).toEqual(ids);
    expect(await nextChunkIds(makerA)).toEqual([ids[0], ids[2]]);
  });

  it("writes a resuming reader's backlog page in one chunk, then the live events after it", async () => {
    const first = await commitThree();
    const resumed = await open({}, BigInt(first[0]!) - 1n);
    expect(await nextChunkIds(resumed)).toEqual(first);
    const next = await commitThree();
    expect(await nextChunkIds(resumed)).toEqual(next);
  });
});
