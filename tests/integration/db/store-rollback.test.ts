import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyAccountSnapshot,
  closeOffer,
  closeOffers,
  endOffer,
  endOffers,
  insertOffer,
  insertOffers,
  recordFill,
  recordFills,
  recordScannedTransaction,
  undoTransaction,
} from "../../../lib/db/writes";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { addressOf, fillFixture, offerFixture, signatureOf, USDC, USDT } from "../../helpers/fixtures";

// The store rules the worker relies on, on a real PostgreSQL: replays change
// nothing, an account snapshot is not lowered again by fills it includes, and
// undoing a dropped transaction restores exactly what it changed.

let database: TestDatabase;
const sql = () => database.db.$client;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

async function offerRow(pda: string) {
  const [row] = await sql()`select remaining_size::text as remaining, state::text, closed_at, last_slot::text from offers where pda = ${pda}`;
  return row;
}
async function statsRow() {
  const [row] = await sql()`select total_offers::int, active_offers::int, filled_offers::int, cancelled_offers::int, total_fills::int from protocol_stats`;
  return row;
}

describe("the store under replays and rollbacks", () => {
  it("records a replayed fill once and lowers remaining once", async () => {
    const offer = offerFixture("replay", { originalSize: 100n, remainingSize: 100n });
    await insertOffer(sql(), offer);
    await insertOffer(sql(), offer);
    const fill = fillFixture("replay", offer.pda, { fillAmount: 30n, slot: 500n });
    expect((await recordFill(sql(), fill))[0]!.outcome).toBe("recorded");
    expect((await recordFill(sql(), fill))[0]!.outcome).toBe("duplicate");
    expect(await offerRow(offer.pda)).toMatchObject({ remaining: "70", state: "active", last_slot: "500" });
    expect((await recordFill(sql(), fillFixture("ghost", addressOf("no-offer"))))[0]!.outcome).toBe("offer_missing");
  });

  it("gives an offer read from its account ahead of the scan its creating transaction when the scan reaches it, and nothing else", async () => {
    const created = offerFixture("ahead-of-scan", { originalSize: 100n, remainingSize: 100n, lastSlot: 700n });
    await insertOffer(sql(), { ...created, createdSignature: null, createdSlot: null, remainingSize: 60n, accountSlot: 900n, lastSlot: 900n });
    const statsBefore = await statsRow();
    expect((await insertOffer(sql(), created)).map((r) => r.pda)).toEqual([created.pda]);
    const [row] = await sql()`select created_signature, created_slot::text, remaining_size::text, last_slot::text from offers where pda = ${created.pda}`;
    expect(row).toEqual({ created_signature: created.createdSignature, created_slot: String(created.createdSlot), remaining_size: "60", last_slot: "900" });
    expect(await statsRow()).toEqual(statsBefore);
    // Once it has one, a replay changes nothing.
    expect(await insertOffer(sql(), { ...created, createdSignature: signatureOf("another") })).toEqual([]);
  });

  it("does not lower an account snapshot again by fills at or before its slot", async () => {
    const offer = offerFixture("snapshot", { originalSize: 100n, remainingSize: 100n });
    await insertOffer(sql(), offer);
    await applyAccountSnapshot(sql(), offer.pda, { remainingSize: 40n, state: "active", slot: 900n });
    await recordFill(sql(), fillFixture("snap-old", offer.pda, { fillAmount: 60n, slot: 800n }));
    expect((await offerRow(offer.pda))!.remaining).toBe("40");
    await recordFill(sql(), fillFixture("snap-new", offer.pda, { fillAmount: 40n, slot: 901n }));
    expect(await offerRow(offer.pda)).toMatchObject({ remaining: "0", state: "filled" });
  });

  it("undoes a dropped transaction: creates deleted, fills given back, ends and closes reopened, aggregates restored", async () => {
    const before = await statsRow();
    const kept = offerFixture("kept", { originalSize: 50n, remainingSize: 50n });
    const created = offerFixture("created-by-dropped", { createdSignature: signatureOf("dropped") });
    await insertOffer(sql(), kept);
    await recordScannedTransaction(sql(), { signature: signatureOf("kept-create"), slot: 1000n, blockTime: null, failed: false, offerPdas: [kept.pda] });
    const closer = offerFixture("closed-by-dropped");
    await insertOffer(sql(), closer);
    await endOffer(sql(), closer.pda, "cancelled", 1000n, signatureOf("earlier-cancel"));

    // One transaction that creates an offer, fills `kept` completely, and closes `closer`.
    const dropped = signatureOf("dropped");
    await insertOffer(sql(), created);
    await recordFill(sql(), fillFixture("dropped-fill", kept.pda, { signature: dropped, fillAmount: 50n, slot: 1001n }));
    await closeOffer(sql(), closer.pda, new Date(), 1001n, dropped);
    await recordScannedTransaction(sql(), { signature: dropped, slot: 1001n, blockTime: null, failed: false, offerPdas: [created.pda, kept.pda, closer.pda] });
    expect(await offerRow(kept.pda)).toMatchObject({ remaining: "0", state: "filled" });

    await sql().begin((tx) => undoTransaction(tx, dropped));
    expect(await offerRow(created.pda)).toBeUndefined();
    expect(await offerRow(kept.pda)).toMatchObject({ remaining: "50", state: "active" });
    expect(await offerRow(closer.pda)).toMatchObject({ state: "cancelled", closed_at: null });
    const [fills] = await sql()`select count(*)::int as n from fills where signature = ${dropped}`;
    expect(fills!.n).toBe(0);
    const after = await statsRow();
    expect(after).toEqual({ ...before, total_offers: before!.total_offers + 2, active_offers: before!.active_offers + 1, cancelled_offers: before!.cancelled_offers + 1 });
    expect(await sql().begin((tx) => undoTransaction(tx, dropped))).toBe(false);
  });

  it("writes a batch set-based as the chain ordered it, with aggregates and slot bounds equal to a rebuild from the rows", async () => {
    const maker = addressOf("maker:batch");
    const offers = [0, 1, 2, 3].map((i) =>
      offerFixture(`batch-${i}`, { maker, originalSize: 100n, remainingSize: 100n, paymentMint: i % 2 ? USDT : USDC }),
    );
    const minute = (m: number) => new Date(Date.parse("2026-07-01T00:00:00Z") + m * 60_000);
    // Offer 0 is filled by two takes (the second ends it), offer 1 partly taken then
    // cancelled, offer 2 expired and closed; fills spread over minutes, slots out of order.
    const fills = [
      fillFixture("batch-a", offers[0]!.pda, { fillAmount: 30n, slot: 2003n, blockTime: minute(3) }),
      fillFixture("batch-b", offers[1]!.pda, { fillAmount: 10n, slot: 2001n, blockTime: minute(1) }),
      fillFixture("batch-c", offers[0]!.pda, { fillAmount: 70n, slot: 2005n, blockTime: minute(5) }),
      fillFixture("batch-d", offers[3]!.pda, { fillAmount: 5n, slot: 2002n, blockTime: minute(2), ixIndex: 1 }),
    ];
    await sql()`select rebuild_aggregates()`; // tight bounds: the undo above left them looser (still valid)
    await sql().begin((tx) => [
      insertOffers(tx, [...offers, offers[0]!]),
      recordFills(tx, [...fills, fills[0]!]),
      endOffers(tx, [
        { pda: offers[1]!.pda, state: "cancelled", slot: 2006n, signature: signatureOf("batch-cancel") },
        { pda: offers[2]!.pda, state: "expired", slot: 2007n, signature: signatureOf("batch-expire") },
        { pda: offers[2]!.pda, state: "cancelled", slot: 2008n, signature: signatureOf("batch-late") },
      ]),
      closeOffers(tx, [{ pda: offers[2]!.pda, closedAt: minute(9), slot: 2009n, signature: signatureOf("batch-close") }]),
    ]);
    expect(await offerRow(offers[0]!.pda)).toMatchObject({ remaining: "0", state: "filled", last_slot: "2005" });
    const [ended] = await sql()`select ended_signature from offers where pda = ${offers[0]!.pda}`;
    expect(ended!.ended_signature).toBe(fills[2]!.signature);
    expect(await offerRow(offers[1]!.pda)).toMatchObject({ remaining: "90", state: "cancelled" });
    expect(await offerRow(offers[2]!.pda)).toMatchObject({ remaining: "100", state: "expired", last_slot: "2009" });
    expect((await offerRow(offers[2]!.pda))!.closed_at).not.toBeNull();
    expect(await offerRow(offers[3]!.pda)).toMatchObject({ remaining: "95", state: "active" });

    const aggregates = async () => ({
      protocol: await sql()`select * from protocol_stats`,
      makers: await sql()`select * from maker_stats order by maker`,
      volume: await sql()`select maker, side, token_mint, amount::text from maker_volume order by 1, 2, 3`,
      mints: await sql()`select payment_mint, fees::text, volume::text, fills from protocol_mint_stats order by 1`,
      bounds: await sql()`select minute, slot_ceiling::text, slot_floor::text from fill_slot_bounds order by minute`,
    });
    const kept = await aggregates();
    await sql()`select rebuild_aggregates()`;
    expect(await aggregates()).toEqual(kept);
  });
});
