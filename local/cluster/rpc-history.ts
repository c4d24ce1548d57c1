import { transactionResultJson } from "./render";
import {
  base58Param,
  atLeastConfirmed,
  checkMinContextSlot,
  checkTransactionVersion,
  configAt,
  type Handler,
  invalidParams,
  maxVersionParam,
  q,
  RawJson,
  type RpcContext,
  RpcError,
  type RpcResult,
  transactionEncodingParam,
  transactionOf,
  withContext,
} from "./rpc-params";

/** The history methods: signatures by address, transactions, statuses and block times, as a node keeps them. */

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function getSignaturesForAddress(ctx: RpcContext, params: unknown[]): RpcResult {
  const address = base58Param(params[0], 32);
  const config = configAt(params, 1);
  const commitment = atLeastConfirmed(config);
  const limit = config.limit ?? 1000;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParams("Invalid limit; max 1000");
  const ledger = ctx.ledger;
  const visible = ledger.visibleSlot(commitment);
  checkMinContextSlot(ctx, config, visible);
  const finalized = ledger.visibleSlot("finalized");
  const positions = ledger.positionsOf(address);

  let index = positions.length - 1;
  if (config.before !== undefined && config.before !== null) {
    const before = transactionOf(ledger, config.before);
    // As on a real node, an unknown `before` yields nothing rather than starting from the top.
    if (!before || before.slot > visible) return new RawJson("[]");
    index = lowerBound(positions, before.position) - 1;
  }
  let untilPosition = -1;
  if (config.until !== undefined && config.until !== null) {
    const until = transactionOf(ledger, config.until);
    if (until) untilPosition = until.position;
  }

  const items: string[] = [];
  for (; index >= 0 && items.length < limit; index--) {
    const position = positions[index] as number;
    if (position <= untilPosition) break;
    const tx = ledger.transactionAt(position);
    if (!tx || tx.pruned) break;
    if (tx.slot > visible) continue;
    const status = tx.slot <= finalized ? "finalized" : "confirmed";
    const memo = tx.result.memo === null ? "null" : JSON.stringify(tx.result.memo);
    items.push(
      `{"signature":${q(tx.signature)},"slot":${tx.slot},"err":${tx.errJson},"memo":${memo},"blockTime":${tx.blockTime},"confirmationStatus":"${status}"}`,
    );
  }
  return new RawJson(`[${items.join(",")}]`);
}

function getTransaction(ctx: RpcContext, params: unknown[]): RpcResult {
  const tx = transactionOf(ctx.ledger, params[0]);
  // The old form passes the encoding as a bare string.
  const config = typeof params[1] === "string" ? { encoding: params[1] } : configAt(params, 1);
  const commitment = atLeastConfirmed(config);
  const encoding = transactionEncodingParam(config);
  const maxVersion = maxVersionParam(config);
  if (!tx || tx.slot > ctx.ledger.visibleSlot(commitment) || (!tx.signed && tx.archived === null)) return null;
  checkTransactionVersion(tx, maxVersion);
  return new RawJson(transactionResultJson(tx, encoding, maxVersion !== null, ctx.ledger.archive));
}

function getSignatureStatuses(ctx: RpcContext, params: unknown[]): RpcResult {
  const signatures = params[0];
  if (!Array.isArray(signatures)) throw invalidParams("Invalid params: invalid type: expected a sequence");
  if (signatures.length > 256) throw invalidParams("Too many inputs provided; max 256");
  const ledger = ctx.ledger;
  const tip = ledger.visibleSlot("confirmed");
  const finalized = ledger.visibleSlot("finalized");
  const values = signatures.map((s) => {
    const tx = transactionOf(ledger, s);
    if (!tx || tx.slot > tip) return "null";
    const isFinal = tx.slot <= finalized;
    const status = tx.result.err === null ? `{"Ok":null}` : `{"Err":${tx.errJson}}`;
    return `{"slot":${tx.slot},"confirmations":${isFinal ? "null" : tip - tx.slot},"err":${tx.errJson},"status":${status},"confirmationStatus":"${isFinal ? "finalized" : "confirmed"}"}`;
  });
  return withContext(tip, `[${values.join(",")}]`);
}

function getBlockTime(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = params[0];
  if (typeof slot !== "number" || !Number.isInteger(slot) || slot < 0) throw invalidParams("Invalid params: invalid type: expected u64");
  const ledger = ctx.ledger;
  if (slot > ledger.visibleSlot("confirmed")) throw new RpcError(-32004, `Block not available for slot ${slot}`);
  if (slot < ledger.firstAvailableSlot) throw new RpcError(-32009, `Slot ${slot} was skipped, or missing in long-term storage`);
  const record = ledger.slot(slot);
  if (!record) throw new RpcError(-32007, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
  return record.blockTime;
}

export const HISTORY_METHODS: Record<string, Handler> = { getSignaturesForAddress, getTransaction, getSignatureStatuses, getBlockTime };
