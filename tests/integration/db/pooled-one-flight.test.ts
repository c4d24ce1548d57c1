import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, disconnect, type Database } from "../../../lib/db/client";
import { listOffers } from "../../../lib/db/reads/offers";
import { insertOffers } from "../../../lib/db/writes/offers";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { offerFixture } from "../../helpers/fixtures";
import { pgWireRelay, type WireRelay } from "../../helpers/pg-wire-relay";

// Through a transaction-mode pooler the client prepares no statements
// (lib/db/client.ts, pooled). postgres.js then described every parameterized
// statement before binding it: two round trips, nothing pipelined behind
// (docs/scale.md "What pooling costs"). patches/postgres+*.patch sends such a
// statement in one flight on the unnamed statement when its parameters are
// plain values. This pins, at the wire (a relay in front of PostgreSQL that
// records what the client sends and when), that a pooled read goes in one
// flight and answers exactly what the prepared path answers, rows and errors;
// and that the parameters whose text needs the declared type (arrays) still
// describe first and still work.

let database: TestDatabase;
let relay: WireRelay;
let pooled: Database;
const prepared = () => database.db.$client;

beforeAll(async () => {
  database = await createTestDatabase();
  const url = new URL(database.url);
  relay = await pgWireRelay({ host: url.hostname, port: Number(url.port || 5432) });
  pooled = connect(relay.url(database.url), { pooled: true, max: 1, applicationName: "one-flight-test" });
  await insertOffers(prepared(), [
    offerFixture("one-flight-a", { side: "sell", createdAt: new Date("2026-06-01T00:00:00Z") }),
    offerFixture("one-flight-b", { side: "buy", pricePerToken: 2_400_000n, createdAt: new Date("2026-06-01T00:00:01Z") }),
    offerFixture("one-flight-c", { side: "sell", remainingSize: 0n, state: "filled", createdAt: new Date("2026-06-01T00:00:02Z") }),
  ]);
});
afterAll(async () => {
  if (pooled) await disconnect(pooled);
  await relay?.close();
  await database?.drop();
});

/** What a query settles to, an error reduced to what a caller can see of it. */
async function outcome(query: Promise<unknown>): Promise<unknown> {
  try {
    return { rows: await query };
  } catch (error) {
    const e = error as Error & { code?: string; position?: string; detail?: string };
    return { error: { name: e.name, message: e.message, code: e.code, position: e.position, detail: e.detail } };
  }
}

describe("a pooled client's parameterized statements", () => {
  it("sends a read with plain parameters in one flight: Parse, Describe, Bind, Execute, Sync, no Flush", async () => {
    await pooled.$client`select /* one-flight:plain */ pda from offers where side = ${"sell"} and price_scale = ${6} limit ${10}`;
    expect(relay.queryMessages("one-flight:plain").map((m) => m.type)).toEqual(["P", "D", "B", "E", "S"]);
    expect(relay.flights("one-flight:plain")).toBe(1);
  });

  it("returns the same values and types as the prepared path: numeric as string, bigint, timestamptz, bool, null, text", async () => {
    // postgres.js sends a bigint as int8 (its inferType), though its types do not list bigint as a parameter.
    const big = 9007199254740993n as unknown as string;
    const statement = (sql: Database["$client"]) => sql`select /* one-flight:types */
      ${"123456789012345678901234567890.123456789"}::numeric as amount,
      ${big} as big,
      ${"2026-06-01T00:00:00.123Z"}::timestamptz as at,
      ${true} as flag,
      ${null}::text as nothing,
      ${"a word, with 'quotes' and \\ a backslash"} as word,
      ${42} as untyped_number,
      ${-1.5}::float8 as float`;
    const viaPool = await statement(pooled.$client);
    expect(relay.flights("one-flight:types")).toBe(1);
    expect(viaPool).toEqual(await statement(prepared()));
    expect({ ...viaPool[0] }).toEqual({
      amount: "123456789012345678901234567890.123456789",
      big: "9007199254740993",
      at: "2026-06-01 00:00:00.123+00",
      flag: true,
      nothing: null,
      word: "a word, with 'quotes' and \\ a backslash",
      untyped_number: "42",
      float: -1.5,
    });
  });

  it("answers a route's list read (GET /v1/offers) byte for byte as the prepared path does", async () => {
    const params = { status: "open" as const, side: "sell" as const, limit: 2, offset: 0 };
    const viaPool = await listOffers(pooled, params);
    expect(viaPool).toBe(await listOffers(database.db, params));
    expect(JSON.parse(viaPool).offers).toHaveLength(1);
    const listParse = relay.messages.filter((m) => m.type === "P" && m.text.includes("json_agg"));
    expect(listParse.length).toBeGreaterThan(0);
    expect(relay.flights(listParse.at(-1)!.text)).toBe(1);
  });

  it("fails with the same errors as the prepared path, at parse, at bind and at execution", async () => {
    const cases = [
      (sql: Database["$client"]) => sql`select /* one-flight:bad-int */ ${"abc"}::int as n`,
      (sql: Database["$client"]) => sql`select /* one-flight:no-column */ no_such_column from offers where pda = ${"x"}`,
      (sql: Database["$client"]) => sql`select /* one-flight:untyped */ ${"a"} + ${"b"} as x`,
      (sql: Database["$client"]) => sql`select /* one-flight:divide */ 1 / (${0}::int) as x`,
      (sql: Database["$client"]) => sql`select /* one-flight:date */ ${new Date(0)}::timestamptz as at`,
    ];
    for (const statement of cases) {
      const viaPool = await outcome(statement(pooled.$client));
      expect(viaPool).toHaveProperty("error");
      expect(viaPool).toEqual(await outcome(statement(prepared())));
    }
    expect(relay.flights("one-flight:bad-int")).toBe(1);
    expect(relay.flights("one-flight:divide")).toBe(1);
    // The connection is in step after the errors.
    expect((await pooled.$client`select ${"still"} as word`)[0]).toEqual({ word: "still" });
  });

  it("sends JSON as text in one flight, and an array parameter (its text needs the declared type) in two, both answering as prepared", async () => {
    const json = (sql: Database["$client"]) =>
      sql`select /* one-flight:json */ x.a, x.b from json_to_recordset(${JSON.stringify([{ a: 1, b: "12.50" }, { a: 2, b: null }])}::json) as x(a int, b numeric)`;
    const viaPool = await json(pooled.$client);
    expect(viaPool).toEqual(await json(prepared()));
    expect(viaPool.map((r) => ({ ...r }))).toEqual([{ a: 1, b: "12.50" }, { a: 2, b: null }]);
    expect(relay.flights("one-flight:json")).toBe(1);

    const pdas = ["missing", (await prepared()`select pda from offers order by pda limit 1`)[0]!.pda as string];
    const array = (sql: Database["$client"]) =>
      sql`select /* one-flight:array */ pda, ${[1, 2, 3]}::int[] as ints from offers where pda = any(${pdas}::text[])`;
    const arrayViaPool = await array(pooled.$client);
    expect(arrayViaPool).toEqual(await array(prepared()));
    expect(arrayViaPool).toHaveLength(1);
    expect(arrayViaPool[0]!.ints).toEqual([1, 2, 3]);
    expect(relay.queryMessages("one-flight:array").map((m) => m.type)).toEqual(["P", "D", "H", "B", "E", "S"]);
    expect(relay.flights("one-flight:array")).toBe(2);
  });

  it("keeps answers in order when many statements are pipelined on one connection", async () => {
    const sql = pooled.$client;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => sql`select ${i} :: int as i, ${`w${i}`} as w`));
    expect(answers.map((rows) => ({ ...rows[0] }))).toEqual(Array.from({ length: 50 }, (_, i) => ({ i, w: `w${i}` })));
  });
});
