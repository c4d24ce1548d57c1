import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findDexBlock, latestDexBlock } from "../../../lib/adapters/dextools";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { signatureOf } from "../../helpers/fixtures";

// The DEXTools blocks (lib/adapters/dextools.ts) are ordered by slot as a
// number: the query's slot column is text, and ordering by its name sorted
// the text ("99" after "100") with a sort of every scanned transaction (11 s
// at bench:api's 5 M) instead of reading the slot index backwards.

let database: TestDatabase;
const sql = () => database.db.$client;
const T0 = 1_780_000_000;

beforeAll(async () => {
  database = await createTestDatabase();
  for (const slot of [98, 99, 100, 101]) {
    await sql()`insert into scanned_transactions (signature, slot, block_time, finalized)
      values (${signatureOf(`dex-blocks-${slot}`)}, ${slot}, to_timestamp(${T0 + slot}), true)`;
  }
  await sql()`insert into scanner_checkpoints (program_id, last_slot) values ('program', 101)`;
});

afterAll(async () => {
  await database?.drop();
});

describe("the DEXTools blocks", () => {
  it("are ordered by slot as a number across a change of digits", async () => {
    expect(await latestDexBlock(database.db)).toEqual({ blockNumber: 100, blockTimestamp: T0 + 100 });
    expect(await findDexBlock(database.db, { timestamp: T0 + 1000 })).toEqual({ blockNumber: 100, blockTimestamp: T0 + 100 });
    expect(await findDexBlock(database.db, { timestamp: T0 + 99 })).toEqual({ blockNumber: 99, blockTimestamp: T0 + 99 });
  });
});
