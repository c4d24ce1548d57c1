import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestDexBlock, readDexPair } from "../../../lib/adapters/dextools";
import { insertOffer, recordFills } from "../../../lib/db/writes/index";
import { recordScan } from "../../../bench/api-data";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { fillFixture, offerFixture, signatureOf, USDC, WSOL } from "../../helpers/fixtures";

// bench:api's data records what a real scan leaves beside its rows (bench/api-data.ts,
// recordScan): its transactions, the scanner's checkpoint and the chain, so that a DEXTools
// block is announced on it (/v1/dextools/latest-block answered 404 on the bench's data).

let database: TestDatabase;
const sql = () => database.db.$client;
const T0 = 1_780_000_000;
const at = (slot: number) => ({ slot: BigInt(slot), blockTime: new Date((T0 + slot) * 1000) });
const ask = offerFixture("scan-record-ask", { tokenMint: WSOL, paymentMint: USDC, side: "sell", createdSlot: 100n });

beforeAll(async () => {
  database = await createTestDatabase();
  await insertOffer(sql(), ask);
  await recordFills(sql(), [
    fillFixture("scan-record-1", ask.pda, { ...at(101), signature: signatureOf("scan-record-tx-1") }),
    fillFixture("scan-record-2", ask.pda, { ...at(105), signature: signatureOf("scan-record-tx-2") }),
    fillFixture("scan-record-3", ask.pda, { ...at(109), signature: signatureOf("scan-record-tx-3") }),
  ]);
});

afterAll(async () => {
  await database?.drop();
});

describe("the bench data's scan record", () => {
  it("announces no block without it, and the newest slot below the checkpoint's with it", async () => {
    expect(await latestDexBlock(database.db)).toBeNull();
    await recordScan(sql(), () => {});
    const [checkpoint] = await sql()`select last_slot::int as slot, last_signature as signature from scanner_checkpoints`;
    expect(checkpoint).toEqual({ slot: 109, signature: signatureOf("scan-record-tx-3") });
    const rows = await sql()`select signature, slot::int as slot, finalized, offer_pdas from scanned_transactions order by slot`;
    expect(rows.map((r) => [r.slot, r.finalized, r.offer_pdas])).toEqual([101, 105, 109].map((slot) => [slot, true, [ask.pda]]));
    expect(await latestDexBlock(database.db)).toEqual({ blockNumber: 105, blockTimestamp: T0 + 105 });
  });

  it("names the chain's program as the pairs' factory, and is made once", async () => {
    const [chain] = await sql()`select program_id from chain_identity`;
    expect((await readDexPair(database.db, { tokenMint: WSOL, paymentMint: USDC }))?.factoryAddress).toBe(chain!.program_id);
    await sql()`delete from scanned_transactions where slot = 101`;
    await recordScan(sql(), () => {});
    expect((await sql()`select count(*)::int as n from scanned_transactions`)[0]!.n).toBe(2);
  });
});
