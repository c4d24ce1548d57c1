import type { Logger } from "pino";
import type postgres from "postgres";
import { decodeOfferAccount, takeAmounts } from "../lib/program";
import { decodeTransaction, type DecodedTransaction } from "../lib/program/transaction-decoder";
import {
  appendChanges,
  appliedSignatures,
  closeOffers,
  endOffers,
  insertOffers,
  offerTerms,
  recordFills,
  recordScannedTransactions,
  writeCheckpoint,
  type NewFill,
  type NewOffer,
  type OfferClose,
  type OfferEnd,
  type OfferTerms,
  type ScannedTransaction,
} from "../lib/db/writes";
import { feedChanges } from "./feed-changes";
import { offerRowFromAccount } from "./offer-row";
import type { Lease } from "./leader-lock";
import type { ProgramRpc } from "./rpc";

export interface SignatureRef {
  signature: string;
  slot: number;
}

export interface BatchResult {
  transactions: number;
  failed: number;
  fills: number;
  events: number;
  undecodable: number;
  /** Takes whose offer is in no row, no create we saw and no account: reported, not priced. */
  unpriced: number;
}

/** The node listed a signature it cannot serve yet (it is behind): try the batch again later. */
export class NotYetAvailableError extends Error {
  override name = "NotYetAvailableError";
}

const seconds = (unix: bigint) => new Date(Number(unix) * 1000);

/** Offer rows from the accounts of offers created before the history the RPC holds. */
async function offersFromAccounts(rpc: ProgramRpc, pdas: string[], log: Logger): Promise<NewOffer[]> {
  if (pdas.length === 0) return [];
  const { slot, accounts } = await rpc.offerAccounts(pdas);
  const rows: NewOffer[] = [];
  for (const { pda, data } of accounts) {
    const offer = data && decodeOfferAccount(data);
    if (!offer) {
      log.error({ pda }, "a take's offer is in no row, no create and no account (closed before its history): fill not priced");
      continue;
    }
    rows.push(offerRowFromAccount(pda, offer, slot));
  }
  return rows;
}

export interface FetchedBatch {
  batch: SignatureRef[];
  /** The batch's transactions not applied yet, decoded, oldest first. */
  decoded: DecodedTransaction[];
}

/** Fetches and decodes a batch's transactions (those not applied already). Reads only: safe to run ahead. */
export async function fetchBatch(sql: postgres.Sql, rpc: ProgramRpc, programId: string, batch: SignatureRef[]): Promise<FetchedBatch> {
  const done = await appliedSignatures(sql, batch.map((s) => s.signature));
  const pending = batch.filter((s) => !done.has(s.signature));
  const read = await rpc.transactions(
    pending.map((s) => s.signature),
    (raw) => decodeTransaction(raw, programId),
  );
  const decoded = read.map((tx, i) => {
    if (tx === null) throw new NotYetAvailableError(`the node has no transaction ${pending[i]!.signature} yet`);
    return tx;
  });
  return { batch, decoded };
}

/**
 * Applies a fetched batch, oldest first, in one database transaction with the
 * checkpoint: either all of it and the checkpoint are written or none.
 * Transactions already applied were left out, and every write is idempotent,
 * so replaying any range changes nothing. Batches commit in order: a take is
 * priced from offers that earlier batches created.
 */
export async function commitBatch(
  sql: postgres.Sql,
  write: Lease["write"],
  rpc: ProgramRpc,
  programId: string,
  fetched: FetchedBatch,
  log: Logger,
  finalizedSlot: bigint = -1n,
): Promise<BatchResult> {
  const result: BatchResult = { transactions: 0, failed: 0, fills: 0, events: 0, undecodable: 0, unpriced: 0 };
  const { batch, decoded } = fetched;
  if (batch.length === 0) return result;

  // Price every take: from the offer's row, a create earlier in this batch, or its account.
  const terms = new Map<string, OfferTerms>();
  const takes = new Set<string>();
  for (const tx of decoded) {
    for (const event of tx.events) {
      if (event.name === "create_offer") {
        const { pricePerToken, priceScale } = event.args;
        terms.set(event.accounts.offer, { pda: event.accounts.offer, pricePerToken, priceScale });
      } else if (event.name === "take_offer" && !terms.has(event.accounts.offer)) {
        takes.add(event.accounts.offer);
      }
    }
  }
  for (const [pda, t] of await offerTerms(sql, [...takes])) terms.set(pda, t);
  const fromAccounts = await offersFromAccounts(rpc, [...takes].filter((p) => !terms.has(p)), log);
  for (const o of fromAccounts) terms.set(o.pda, o);

  // The batch's writes, gathered by kind and written as one statement each, in
  // an order the chain allows: an offer is created before it is taken, taken
  // before it ends, and closed last.
  const offers: NewOffer[] = [...fromAccounts];
  const fills: NewFill[] = [];
  const ends: OfferEnd[] = [];
  const closes: OfferClose[] = [];
  const scanned: ScannedTransaction[] = [];
  for (const t of decoded) {
    const blockTime = t.blockTime ?? new Date(0);
    const touched = new Set<string>();
    for (const e of t.events) {
      touched.add(e.accounts.offer);
      result.events++;
      switch (e.name) {
        case "create_offer":
          offers.push({
            pda: e.accounts.offer,
            maker: e.accounts.maker,
            tokenMint: e.accounts.tokenMint,
            paymentMint: e.accounts.paymentMint,
            side: e.args.side,
            nonce: e.args.nonce,
            originalSize: e.args.size,
            remainingSize: e.args.size,
            pricePerToken: e.args.pricePerToken,
            priceScale: e.args.priceScale,
            minFill: e.args.minFill,
            createdAt: blockTime,
            expiresAt: seconds(e.args.expiresAt),
            createdSignature: t.signature,
            createdSlot: t.slot,
            lastSlot: t.slot,
          });
          break;
        case "take_offer": {
          const offer = terms.get(e.accounts.offer);
          if (!offer) {
            result.unpriced++;
            break;
          }
          const amounts = takeAmounts(e.args.fillAmount, offer.pricePerToken, offer.priceScale);
          result.fills++;
          fills.push({
            signature: t.signature,
            ixIndex: e.ixIndex,
            offerPda: e.accounts.offer,
            taker: e.accounts.taker,
            fillAmount: e.args.fillAmount,
            paymentAmount: amounts.paymentAmount,
            feeAmount: amounts.feeAmount,
            blockTime,
            slot: t.slot,
          });
          break;
        }
        case "cancel_offer":
        case "expire_offer":
          ends.push({ pda: e.accounts.offer, state: e.name === "cancel_offer" ? "cancelled" : "expired", slot: t.slot, signature: t.signature });
          break;
        case "close_offer":
          closes.push({ pda: e.accounts.offer, closedAt: blockTime, slot: t.slot, signature: t.signature });
          break;
      }
    }
    result.transactions++;
    if (t.failed) result.failed++;
    result.undecodable += t.undecodable;
    scanned.push({
      signature: t.signature,
      slot: t.slot,
      blockTime: t.blockTime,
      failed: t.failed,
      offerPdas: [...touched],
      // Listed by the node at a slot the cluster has finalized: final already.
      finalized: t.slot <= finalizedSlot,
    });
  }

  const last = batch.at(-1)!;
  const changes = feedChanges(decoded, fills);
  await write(async (tx) => {
    await Promise.all([
      ...(offers.length ? [insertOffers(tx, offers)] : []),
      ...(fills.length ? [recordFills(tx, fills)] : []),
      ...(ends.length ? [endOffers(tx, ends)] : []),
      ...(closes.length ? [closeOffers(tx, closes)] : []),
      ...(scanned.length ? [recordScannedTransactions(tx, scanned)] : []),
      writeCheckpoint(tx, programId, { lastSignature: last.signature, lastSlot: BigInt(last.slot) }),
    ]);
    // The live feed's events, rendered from the rows just written, committed with them.
    await appendChanges(tx, changes);
  });
  return result;
}
