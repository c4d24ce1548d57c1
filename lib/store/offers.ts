import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { offers } from "../db/schema";
import type { Executor } from "./executor";

export type OfferRow = typeof offers.$inferSelect;
export type NewOffer = Omit<typeof offers.$inferInsert, "price" | "indexedAt">;
export type TerminalState = "cancelled" | "expired";

/** Records an offer; a second write of the same pda changes nothing. Returns whether it was new. */
export async function insertOffer(db: Executor, offer: NewOffer): Promise<boolean> {
  const inserted = await db.insert(offers).values(offer).onConflictDoNothing().returning({ pda: offers.pda });
  return inserted.length > 0;
}

/** Rows reflecting an account snapshot taken at or after `slot` already include the change. */
const notYetReflected = (slot: bigint) => or(isNull(offers.accountSlot), lt(offers.accountSlot, slot));

/**
 * cancel_offer / expire_offer: an active offer ends. Idempotent: an offer that
 * has already left the active state keeps the state it has.
 */
export async function endOffer(db: Executor, pda: string, state: TerminalState, slot: bigint): Promise<boolean> {
  const updated = await db
    .update(offers)
    .set({ state, lastSlot: sql`greatest(${offers.lastSlot}, ${slot})` })
    .where(and(eq(offers.pda, pda), eq(offers.state, "active"), notYetReflected(slot)))
    .returning({ pda: offers.pda });
  return updated.length > 0;
}

/** close_offer: the account is deleted; the row stays as history. */
export async function closeOffer(db: Executor, pda: string, closedAt: Date, slot: bigint): Promise<boolean> {
  const updated = await db
    .update(offers)
    .set({ closedAt, lastSlot: sql`greatest(${offers.lastSlot}, ${slot})` })
    .where(and(eq(offers.pda, pda), isNull(offers.closedAt)))
    .returning({ pda: offers.pda });
  return updated.length > 0;
}

export interface AccountSnapshot {
  remainingSize: bigint;
  state: OfferRow["state"];
  slot: bigint;
}

/** Brings a row to what the offer's account said at `slot`, unless the row already reflects a later read. */
export async function applyAccountSnapshot(db: Executor, pda: string, snapshot: AccountSnapshot): Promise<boolean> {
  const updated = await db
    .update(offers)
    .set({
      remainingSize: snapshot.remainingSize,
      state: snapshot.state,
      accountSlot: snapshot.slot,
      lastSlot: sql`greatest(${offers.lastSlot}, ${snapshot.slot})`,
    })
    .where(and(eq(offers.pda, pda), notYetReflected(snapshot.slot)))
    .returning({ pda: offers.pda });
  return updated.length > 0;
}

/** The offer was seen (its account read) at `slot` with nothing changed. */
export async function touchOffer(db: Executor, pda: string, slot: bigint): Promise<void> {
  await db
    .update(offers)
    .set({ lastSlot: sql`greatest(${offers.lastSlot}, ${slot})` })
    .where(eq(offers.pda, pda));
}

export async function findOffer(db: Executor, pda: string): Promise<OfferRow | undefined> {
  const [row] = await db.select().from(offers).where(eq(offers.pda, pda));
  return row;
}
