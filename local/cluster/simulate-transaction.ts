import type { Ledger } from "./ledger";
import type { AccountRecord } from "./state";
import { type BlockContext, type ExecutionResult, executeTransaction, type TransactionError, TransactionRejected } from "./transaction-executor";
import type { CompiledMessage } from "./wire";

export interface SimulationOutcome {
  /** The slot whose state the transaction ran against. */
  slot: number;
  err: TransactionError | null;
  /** Null when the transaction was refused before executing (unknown blockhash, no fee payer, ...). */
  result: ExecutionResult | null;
  /** Why a transaction was refused before executing, in the node's words. */
  message: string | null;
  /** The accounts asked for (`capture`), as the transaction left them; null where it was refused. */
  accounts: Array<AccountRecord | undefined> | null;
  /** Set when the blockhash was replaced: the one it ran with. */
  replacement: { blockhash: string; lastValidBlockHeight: number } | null;
}

/**
 * Runs a transaction against the tip's accounts in the block it would land in (`block`), then
 * takes every change back (fee included): what simulateTransaction and
 * sendTransaction's preflight report, without committing anything.
 */
export function simulateMessage(
  ledger: Ledger,
  message: CompiledMessage,
  signature: string,
  options: { replaceRecentBlockhash: boolean; block: BlockContext; capture?: readonly string[] },
): SimulationOutcome {
  const tip = ledger.tip;
  let replacement: SimulationOutcome["replacement"] = null;
  let run = message;
  if (options.replaceRecentBlockhash) {
    const blockhash = ledger.recentBlockhash();
    const record = ledger.slots[ledger.slots.length - 2] ?? tip;
    replacement = { blockhash, lastValidBlockHeight: record.blockHeight + 150 };
    run = { ...message, recentBlockhash: blockhash };
  } else if (!ledger.isRecentBlockhash(message.recentBlockhash)) {
    return { slot: tip.slot, err: "BlockhashNotFound", message: "Blockhash not found", result: null, accounts: null, replacement };
  }
  if (ledger.bySignatureAvailable(signature)) return { slot: tip.slot, err: "AlreadyProcessed", message: "This transaction has already been processed", result: null, accounts: null, replacement };
  let result: ExecutionResult;
  try {
    result = executeTransaction(ledger.state, ledger.programs, run, signature, options.block);
  } catch (e) {
    if (e instanceof TransactionRejected) return { slot: tip.slot, err: e.err, message: e.message, result: null, accounts: null, replacement };
    throw e;
  }
  const accounts = options.capture ? options.capture.map((address) => ledger.state.get(address)) : null;
  ledger.state.undo(result.undo);
  return { slot: tip.slot, err: result.err, message: null, result, accounts, replacement };
}
