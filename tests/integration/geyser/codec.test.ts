import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawFromGeyser } from "../../../lib/geyser/raw-transaction";
import { SubscribeUpdate } from "../../../lib/geyser/service";
import { decodeTransaction } from "../../../lib/program/transaction-decoder";
import type { RawTransaction } from "../../../lib/program/raw-transaction";
import { startLocalCluster, type LocalCluster } from "../../../local/cluster/index";
import { metaJson, transactionJson } from "../../../local/cluster/render";
import { transactionUpdate } from "../../../local/cluster/yellowstone/encode";

// A transaction read from a Yellowstone update decodes to exactly what the
// same transaction read from getTransaction does: every event, account,
// amount and position, for legacy and v0 transactions (loaded addresses from
// the meta), CPI through the router, and failed ones. The update goes
// through its protobuf bytes, as on the wire.

let cluster: LocalCluster;

beforeAll(async () => {
  cluster = await startLocalCluster({ seed: "geyser-codec", history: 400, v0Share: 0.5, live: false });
});
afterAll(async () => {
  await cluster?.stop();
});

describe("the Yellowstone transaction codec", () => {
  it("decodes every ledger transaction as the RPC path does", () => {
    const ledger = cluster.ledger;
    let events = 0;
    let v0 = 0;
    let failed = 0;
    for (const tx of ledger.transactions) {
      const record = ledger.slot(tx.slot)!;
      const fromRpc: RawTransaction = {
        slot: tx.slot,
        blockTime: tx.blockTime,
        version: tx.version,
        meta: JSON.parse(metaJson(tx, ledger.archive)),
        transaction: JSON.parse(transactionJson(tx, "json", ledger.archive)),
      };
      const update = transactionUpdate(ledger, tx, tx.position - record.firstPosition, ["program"]);
      const wire = SubscribeUpdate.decode(SubscribeUpdate.encode(update).finish());
      const fromStream = rawFromGeyser(wire.transaction!.transaction!, Number(wire.transaction!.slot), record.blockTime);
      const expected = decodeTransaction(fromRpc, cluster.programId);
      expect(decodeTransaction(fromStream, cluster.programId), tx.signature).toEqual(expected);
      events += expected.events.length;
      if (tx.version === 0) v0++;
      if (expected.failed) failed++;
    }
    expect(events).toBeGreaterThan(100);
    expect(v0).toBeGreaterThan(50);
    expect(failed).toBeGreaterThan(0);
  });
});
