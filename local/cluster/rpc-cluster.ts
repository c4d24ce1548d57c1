import type { Ledger } from "./ledger";
import { API_VERSION, commitmentOf, configAt, type Handler, invalidParams, q, type RpcContext, RpcError, type RpcResult, withContext } from "./rpc-params";
import { rentExemptLamports } from "./state";

/** The cluster methods: slots, heights, blockhashes, epoch, health, version. */

const FEATURE_SET = 3_294_202_862;
const SLOTS_PER_EPOCH = 432_000;

function getSlot(ctx: RpcContext, params: unknown[]): RpcResult {
  const config = configAt(params, 0);
  return ctx.ledger.visibleSlot(commitmentOf(config));
}

function blockHeightAt(ledger: Ledger, slot: number): number {
  return ledger.slot(slot)?.blockHeight ?? ledger.tip.blockHeight;
}

function getBlockHeight(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 0)));
  return blockHeightAt(ctx.ledger, slot);
}

function getLatestBlockhash(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 0)));
  const record = ctx.ledger.slot(slot) ?? ctx.ledger.tip;
  return withContext(slot, `{"blockhash":${q(record.blockhash)},"lastValidBlockHeight":${record.blockHeight + 150}}`);
}

function isBlockhashValid(ctx: RpcContext, params: unknown[]): RpcResult {
  if (typeof params[0] !== "string") throw invalidParams();
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 1)));
  return withContext(slot, String(ctx.ledger.isRecentBlockhash(params[0])));
}

function getEpochInfo(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = ctx.ledger.visibleSlot(commitmentOf(configAt(params, 0)));
  return {
    absoluteSlot: slot,
    blockHeight: blockHeightAt(ctx.ledger, slot),
    epoch: Math.floor(slot / SLOTS_PER_EPOCH),
    slotIndex: slot % SLOTS_PER_EPOCH,
    slotsInEpoch: SLOTS_PER_EPOCH,
    transactionCount: ctx.ledger.transactions.length,
  };
}

function getHealth(ctx: RpcContext): RpcResult {
  const behind = ctx.ledger.behindSlots;
  if (behind > 0) throw new RpcError(-32005, `Node is behind by ${behind} slots`, { numSlotsBehind: behind });
  return "ok";
}

export const CLUSTER_METHODS: Record<string, Handler> = {
  getSlot,
  getBlockHeight,
  getLatestBlockhash,
  isBlockhashValid,
  getEpochInfo,
  getHealth,
  getVersion: () => ({ "feature-set": FEATURE_SET, "solana-core": API_VERSION }),
  getGenesisHash: (ctx) => ctx.ledger.genesisHash,
  getFirstAvailableBlock: (ctx) => ctx.ledger.firstAvailableSlot,
  minimumLedgerSlot: (ctx) => ctx.ledger.firstAvailableSlot,
  getTransactionCount: (ctx) => ctx.ledger.transactions.length,
  getMinimumBalanceForRentExemption: (_ctx, params) => {
    if (typeof params[0] !== "number") throw invalidParams();
    return rentExemptLamports(params[0]);
  },
};
