import type { Ledger, LedgerTransaction, SlotRecord } from "./ledger";
import { type EncodeOptions, transactionAccountsFields, transactionWithMetaFields, type UiTransactionEncoding } from "./render";
import {
  atLeastConfirmed,
  checkTransactionVersion,
  configAt,
  type Handler,
  invalidParams,
  maxVersionParam,
  RawJson,
  type RpcContext,
  RpcError,
  type RpcResult,
  transactionEncodingParam,
} from "./rpc-params";

/**
 * getBlock as a node answers it (rpc.rs get_block, UiConfirmedBlock): a
 * block's hashes, parent, time and height, with its transactions in full (any
 * encoding), as accounts, as signatures or not at all; rewards unless
 * `rewards: false`; refusing a v0 transaction without
 * maxSupportedTransactionVersion; and a node's errors for a slot not yet at
 * the commitment asked (-32004), skipped (-32007) or cleaned up (-32001).
 */

type TransactionDetails = "full" | "accounts" | "signatures" | "none";

/** The block before the first one the ledger holds has no record: a node gives the default hash there. */
const DEFAULT_HASH = "11111111111111111111111111111111";

function transactionDetailsParam(config: Record<string, unknown>): TransactionDetails {
  const details = config.transactionDetails ?? "full";
  if (details === "full" || details === "accounts" || details === "signatures" || details === "none") return details;
  throw invalidParams(`Invalid params: unknown variant \`${String(details)}\`, expected one of \`full\`, \`signatures\`, \`none\`, \`accounts\``);
}

/** The block at `slot`, or the error a node gives for it at this commitment. */
function blockAt(ledger: Ledger, slot: number, commitment: "confirmed" | "finalized"): SlotRecord {
  const notAvailable = () => new RpcError(-32004, `Block not available for slot ${slot}`);
  if (slot <= ledger.visibleSlot("finalized")) {
    if (slot < ledger.firstAvailableSlot) {
      throw new RpcError(-32001, `Block ${slot} cleaned up, does not exist on node. First available block: ${ledger.firstAvailableSlot}`);
    }
    const record = ledger.slot(slot);
    if (!record) throw new RpcError(-32007, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
    return record;
  }
  // Above the root only `confirmed` sees a block, and a skipped slot there is simply not available.
  const record = commitment === "confirmed" && slot <= ledger.visibleSlot("confirmed") ? ledger.slot(slot) : undefined;
  if (!record) throw notAvailable();
  return record;
}

function transactionsOf(ledger: Ledger, record: SlotRecord): LedgerTransaction[] {
  const out: LedgerTransaction[] = [];
  for (let p = record.firstPosition; p < record.firstPosition + record.transactionCount; p++) out.push(ledger.transactionAt(p) as LedgerTransaction);
  return out;
}

function getBlock(ctx: RpcContext, params: unknown[]): RpcResult {
  const slot = params[0];
  if (typeof slot !== "number" || !Number.isInteger(slot) || slot < 0) throw invalidParams("Invalid params: invalid type: expected u64");
  // The old form passes the encoding as a bare string.
  const config = typeof params[1] === "string" ? { encoding: params[1] } : configAt(params, 1);
  const commitment = atLeastConfirmed(config) === "finalized" ? "finalized" : "confirmed";
  const encoding: UiTransactionEncoding = transactionEncodingParam(config);
  const details = transactionDetailsParam(config);
  const maxVersion = maxVersionParam(config);
  if (config.rewards !== undefined && config.rewards !== null && typeof config.rewards !== "boolean") throw invalidParams("Invalid params: invalid type: expected a boolean");
  const showRewards = config.rewards !== false;

  const ledger = ctx.ledger;
  const record = blockAt(ledger, slot, commitment);
  const transactions = transactionsOf(ledger, record);
  const options: EncodeOptions = { includeVersion: maxVersion !== null, showRewards };
  if (details === "full" || details === "accounts") for (const tx of transactions) checkTransactionVersion(tx, maxVersion);

  const parent = ledger.slot(record.parentSlot);
  const previousBlockhash = parent && parent !== record ? parent.blockhash : DEFAULT_HASH;
  let json = `{"previousBlockhash":"${previousBlockhash}","blockhash":"${record.blockhash}","parentSlot":${record.parentSlot}`;
  if (details === "full") json += `,"transactions":[${transactions.map((tx) => `{${transactionWithMetaFields(tx, encoding, options, ledger.archive)}}`).join(",")}]`;
  if (details === "accounts") json += `,"transactions":[${transactions.map((tx) => `{${transactionAccountsFields(tx, options, ledger.archive)}}`).join(",")}]`;
  if (details === "signatures") json += `,"signatures":[${transactions.map((tx) => `"${tx.signature}"`).join(",")}]`;
  // The cluster pays no leader or staking rewards: a block's reward list is empty.
  if (showRewards) json += `,"rewards":[]`;
  return new RawJson(`${json},"blockTime":${record.blockTime},"blockHeight":${record.blockHeight}}`);
}

export const BLOCK_METHODS: Record<string, Handler> = { getBlock };
