import { SlotStatus, type SubscribeUpdateTransactionInfo } from "../../lib/geyser/service";
import type { StreamEvent } from "./stream";

/** A slot the stream has told in full at the commitment: its program transactions in block order, deduplicated. */
export interface CompleteSlot {
  slot: number;
  blockTime: number | null;
  transactions: { index: number; info: SubscribeUpdateTransactionInfo }[];
}

export type SlotOutcome = { kind: "complete"; slot: CompleteSlot } | { kind: "dead"; slot: number };

interface Pending {
  blockTime: number | null;
  transactions: Map<string, { index: number; info: SubscribeUpdateTransactionInfo }>;
}

/**
 * Gathers a stream's updates per slot. A slot is complete when its status at
 * the commitment (or a later slot's) arrives: its transactions and block meta
 * came before it. A dead slot's buffer is dropped and the slot reported.
 */
export class SlotAssembler {
  private readonly pending = new Map<number, Pending>();
  /** The first slot the stream told of (any update), the bridge's end. */
  firstSlot: number | null = null;

  constructor(private readonly commitment: "confirmed" | "finalized") {}

  private slot(slot: number): Pending {
    let p = this.pending.get(slot);
    if (!p) this.pending.set(slot, (p = { blockTime: null, transactions: new Map() }));
    return p;
  }

  push(event: Exclude<StreamEvent, { kind: "end" }>): SlotOutcome[] {
    this.firstSlot ??= event.slot;
    switch (event.kind) {
      case "transaction": {
        const signature = Buffer.from(event.info.signature).toString("base64");
        this.slot(event.slot).transactions.set(signature, { index: event.index, info: event.info });
        return [];
      }
      case "blockMeta":
        this.slot(event.slot).blockTime = event.blockTime;
        return [];
      case "slot": {
        if (event.status === SlotStatus.SLOT_DEAD) {
          this.pending.delete(event.slot);
          return [{ kind: "dead", slot: event.slot }];
        }
        const wanted = this.commitment === "finalized" ? SlotStatus.SLOT_FINALIZED : SlotStatus.SLOT_CONFIRMED;
        if (event.status !== wanted && !(wanted === SlotStatus.SLOT_CONFIRMED && event.status === SlotStatus.SLOT_FINALIZED)) return [];
        const done = [...this.pending.keys()].filter((s) => s <= event.slot).sort((a, b) => a - b);
        return done.map((slot) => {
          const p = this.pending.get(slot)!;
          this.pending.delete(slot);
          const transactions = [...p.transactions.values()].sort((a, b) => a.index - b.index);
          return { kind: "complete", slot: { slot, blockTime: p.blockTime, transactions } };
        });
      }
    }
  }
}
