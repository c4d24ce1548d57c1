import { VersionedMessage } from "@solana/web3.js";
import { base58Param, commitmentOf, configAt, type Handler, invalidParams, type RpcContext, type RpcResult, withContext } from "./rpc-params";
import { computeBudget, LAMPORTS_PER_SIGNATURE } from "./transaction-executor";
import { assembleWire, parseWireTransaction } from "./wire";

/** The fee methods wallets ask before sending: a message's fee, and recent priority fees. */

/** How many recent slots getRecentPrioritizationFees reports, as a node's cache holds. */
const PRIORITIZATION_FEE_SLOTS = 150;

function getFeeForMessage(ctx: RpcContext, params: unknown[]): RpcResult {
  if (typeof params[0] !== "string") throw invalidParams();
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 1)));
  let bytes: Uint8Array;
  let signatures: number;
  try {
    bytes = new Uint8Array(Buffer.from(params[0], "base64"));
    signatures = VersionedMessage.deserialize(bytes).header.numRequiredSignatures;
  } catch {
    throw invalidParams("invalid message: failed to deserialize");
  }
  const message = parseWireTransaction(assembleWire(bytes, Array.from({ length: signatures }, () => new Uint8Array(64)))).message;
  // As a node: no fee for a message whose blockhash has expired.
  if (!ctx.ledger.isRecentBlockhash(message.recentBlockhash)) return withContext(slot, "null");
  return withContext(slot, String(LAMPORTS_PER_SIGNATURE * signatures + computeBudget(message).priorityFee));
}

/**
 * Per recent slot, the lowest compute-unit price among its transactions that
 * lock any of the given accounts (all its transactions when none is given);
 * 0 for a slot with none, as a node reports.
 */
function getRecentPrioritizationFees(ctx: RpcContext, params: unknown[]): RpcResult {
  const given = params[0] ?? [];
  if (!Array.isArray(given)) throw invalidParams("Invalid params: invalid type: expected a sequence");
  if (given.length > 128) throw invalidParams("Too many inputs provided; max 128");
  const accounts = new Set(given.map((a) => base58Param(a, 32)));
  const ledger = ctx.ledger;
  const out: Array<{ slot: number; prioritizationFee: number }> = [];
  for (const record of ledger.slots.slice(-PRIORITIZATION_FEE_SLOTS)) {
    let lowest: bigint | null = null;
    for (let p = record.firstPosition; p < record.firstPosition + record.transactionCount; p++) {
      const tx = ledger.transactionAt(p);
      const message = tx?.signed?.message;
      if (!tx || !message) continue;
      if (accounts.size > 0 && !tx.addresses.some((a) => accounts.has(a))) continue;
      const price = computeBudget(message).microLamports;
      if (lowest === null || price < lowest) lowest = price;
    }
    out.push({ slot: record.slot, prioritizationFee: Number(lowest ?? 0n) });
  }
  return out;
}

export const FEE_METHODS: Record<string, Handler> = { getFeeForMessage, getRecentPrioritizationFees };
