import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestDexBlock } from "../../../lib/adapters/dextools";
import type { Database } from "../../../lib/db/client";
import { newestScanned, unfinalizedUpTo } from "../../../lib/db/writes/transactions";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// The transactions not yet final are the newest few among millions of final
// ones. The worker's finality tick (unfinalizedUpTo) and the DEXTools horizon
// (latestDexBlock) ask for the oldest of them; through the slot index both
// walked past every final transaction first (273 ms a tick at bench:api's
// 5 M). drizzle/0015's partial index holds only the unfinal ones. A
// rollback's checkpoint (newestScanned) is the newest of all; both in the
// order of the slot, not of its text (the output column of that name).

let database: TestDatabase;
let traced: postgres.Sql;
const statements: { query: string; params: unknown[] }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const sql = database.db.$client;
  await sql`insert into scanned_transactions (signature, slot, block_time, finalized)
    select 'final-' || i, i, to_timestamp(1780000000 + i), true from generate_series(1, 30000) i`;
  await sql`insert into scanned_transactions (signature, slot, block_time, finalized)
    select 'pending-' || i, 30000 + i, to_timestamp(1780030000 + i), false from generate_series(1, 5) i`;
  await sql`insert into scanner_checkpoints (program_id, last_slot) values ('program', 30005)`;
  await sql`vacuum analyze scanned_transactions`;
  traced = postgres(database.url, { max: 1, onnotice: () => {}, debug: (_c, query, params) => statements.push({ query, params }) });
});

afterAll(async () => {
  await traced?.end();
  await database?.drop();
});

/** The plan of the one statement `read` sends. */
async function planOf(read: () => Promise<unknown>): Promise<string> {
  statements.length = 0;
  await read();
  const { query, params } = statements.at(-1)!;
  const rows = await database.db.$client.unsafe(`explain ${query}`, params as string[]);
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

describe("the transactions not yet final", () => {
  it("are the finality tick's page, oldest first, read from the unfinal ones' index", async () => {
    expect(await unfinalizedUpTo(traced, 30_003n, 10)).toEqual([1n, 2n, 3n].map((i) => ({ signature: `pending-${i}`, slot: 30_000n + i })));
    expect(await planOf(() => unfinalizedUpTo(traced, 30_003n, 10))).toMatch(/scanned_transactions_unfinalized_idx/);
  });

  it("bound the DEXTools horizon, read from the same index", async () => {
    const db = drizzle(traced) as unknown as Database;
    expect(await latestDexBlock(db)).toEqual({ blockNumber: 30_000, blockTimestamp: 1_780_030_000 });
    expect(await planOf(() => latestDexBlock(db))).toMatch(/scanned_transactions_unfinalized_idx/);
  });
});

describe("the newest applied transaction", () => {
  it("is the one of the highest slot (not the highest slot as text), read backwards from the slot index", async () => {
    expect(await newestScanned(traced)).toEqual({ lastSignature: "pending-5", lastSlot: 30_005n });
    const plan = await planOf(() => newestScanned(traced));
    expect(plan, plan).toMatch(/Index Scan Backward using scanned_transactions_slot_idx/);
    expect(plan, plan).not.toMatch(/Seq Scan/);
  });

  it("and the unfinal ones are ordered by slot across a change in the number of digits", async () => {
    await database.db.$client`insert into scanned_transactions (signature, slot, finalized)
      values ('pending-99999', 99999, false), ('pending-100000', 100000, false)`;
    expect(await newestScanned(traced)).toEqual({ lastSignature: "pending-100000", lastSlot: 100_000n });
    expect(await unfinalizedUpTo(traced, 100_000n, 3)).toEqual([1n, 2n, 3n].map((i) => ({ signature: `pending-${i}`, slot: 30_000n + i })));
    expect((await unfinalizedUpTo(traced, 100_000n, 10)).map((t) => t.slot).slice(-2)).toEqual([99_999n, 100_000n]);
  });
});
