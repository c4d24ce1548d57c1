import { describe, expect, it } from "vitest";
import { SlotStatus, type SubscribeUpdateTransactionInfo } from "../../lib/geyser/service";
import { SlotAssembler } from "../../worker/geyser/slots";

// The gate's slot assembler: a slot is applied once its status at the
// commitment arrives, its transactions in block order and each once; a dead
// slot is dropped and reported.

const info = (id: number, index: number): SubscribeUpdateTransactionInfo => ({
  signature: Uint8Array.from([id]),
  isVote: false,
  transaction: undefined,
  meta: undefined,
  index: String(index),
});
const tx = (slot: number, id: number, index: number) => ({ kind: "transaction" as const, slot, index, info: info(id, index) });
const status = (slot: number, s: SlotStatus) => ({ kind: "slot" as const, slot, status: s });

describe("SlotAssembler", () => {
  it("completes a slot on its confirmed status, in index order, each signature once", () => {
    const a = new SlotAssembler("confirmed");
    expect(a.push(tx(10, 2, 1))).toEqual([]);
    a.push(tx(10, 1, 0));
    a.push(tx(10, 2, 1)); // the same signature again (a replay)
    a.push({ kind: "blockMeta", slot: 10, blockTime: 1_700_000_000 });
    expect(a.push(status(10, SlotStatus.SLOT_PROCESSED))).toEqual([]);
    const [done] = a.push(status(10, SlotStatus.SLOT_CONFIRMED));
    expect(done?.kind).toBe("complete");
    if (done?.kind !== "complete") return;
    expect(done.slot.slot).toBe(10);
    expect(done.slot.blockTime).toBe(1_700_000_000);
    expect(done.slot.transactions.map((t) => t.index)).toEqual([0, 1]);
    expect(a.firstSlot).toBe(10);
  });

  it("completes earlier slots, oldest first, when a later slot's status comes first", () => {
    const a = new SlotAssembler("confirmed");
    a.push(tx(12, 3, 0));
    a.push(tx(11, 4, 0));
    const done = a.push(status(12, SlotStatus.SLOT_CONFIRMED));
    expect(done.map((d) => (d.kind === "complete" ? d.slot.slot : -1))).toEqual([11, 12]);
  });

  it("drops a dead slot's transactions and reports it", () => {
    const a = new SlotAssembler("confirmed");
    a.push(tx(20, 5, 0));
    expect(a.push(status(20, SlotStatus.SLOT_DEAD))).toEqual([{ kind: "dead", slot: 20 }]);
    expect(a.push(status(20, SlotStatus.SLOT_CONFIRMED))).toEqual([]);
  });

  it("at finalized, waits for the finalized status", () => {
    const a = new SlotAssembler("finalized");
    a.push(tx(30, 6, 0));
    expect(a.push(status(30, SlotStatus.SLOT_CONFIRMED))).toEqual([]);
    expect(a.push(status(30, SlotStatus.SLOT_FINALIZED))).toHaveLength(1);
  });
});
