import { type Connection, type PublicKey, Transaction, type TransactionInstruction, VersionedTransaction } from "@solana/web3.js";
import {
  describeSendError,
  describeTransactionError,
  type InstructionGroup,
  packInstructionGroups,
  priorityFeeMicroLamports,
  readComputeBudget,
  transactionFeeLamports,
  unitsFromSimulation,
  withComputeUnitLimit,
} from "@/lib/program";
import { sleep } from "@/lib/resilience";
import type { ConnectedWallet } from "@/client/wallet-session";

// An action's transactions from plan to `confirmed`: packed, simulated
// (nothing is sent when a simulation fails), re-budgeted to the units the
// simulation used, signed and sent by the wallet, then followed by signature.

export interface PreparedTransactions {
  transactions: Transaction[];
  /** All transactions' fees (signature and priority), for the confirm step. */
  feeLamports: bigint;
  lastValidBlockHeight: number;
}

export type Prepared = { ok: true; prepared: PreparedTransactions } | { ok: false; error: string; logs: string[] };

async function recentPriorityFee(connection: Connection, accounts: PublicKey[]): Promise<number> {
  try {
    const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: accounts.slice(0, 128) });
    return priorityFeeMicroLamports(fees.map((f) => f.prioritizationFee));
  } catch {
    return priorityFeeMicroLamports([]);
  }
}

function writableAccounts(instructions: readonly TransactionInstruction[]): PublicKey[] {
  const seen = new Map<string, PublicKey>();
  for (const ix of instructions) for (const k of ix.keys) if (k.isWritable) seen.set(k.pubkey.toBase58(), k.pubkey);
  return [...seen.values()];
}

/** Packs, simulates every transaction, and re-budgets each to what it used. */
export async function prepareTransactions(connection: Connection, payer: PublicKey, programId: string, groups: readonly InstructionGroup[]): Promise<Prepared> {
  const microLamports = await recentPriorityFee(connection, writableAccounts(groups.flatMap((g) => g.main)));
  const packed = packInstructionGroups(groups, { payer, programId, microLamports });
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash("confirmed");
  const transactions: Transaction[] = [];
  let feeLamports = 0n;
  for (const instructions of packed) {
    const draft = new Transaction({ feePayer: payer, blockhash, lastValidBlockHeight }).add(...instructions);
    const simulation = await connection.simulateTransaction(new VersionedTransaction(draft.compileMessage()), { sigVerify: false, commitment: "confirmed" });
    const logs = simulation.value.logs ?? [];
    if (simulation.value.err) {
      return { ok: false, error: describeTransactionError(simulation.value.err, { logs, instructionPrograms: instructions.map((ix) => ix.programId.toBase58()) }), logs };
    }
    const planned = readComputeBudget(instructions);
    const units = unitsFromSimulation(simulation.value.unitsConsumed, planned.units);
    transactions.push(new Transaction({ feePayer: payer, blockhash, lastValidBlockHeight }).add(...withComputeUnitLimit(instructions, units)));
    feeLamports += transactionFeeLamports(1, { units, microLamports: planned.microLamports });
  }
  return { ok: true, prepared: { transactions, feeLamports, lastValidBlockHeight } };
}

const POLL_MS = 600;
const CONFIRM_TIMEOUT_MS = 90_000;

/** Follows a signature to `confirmed` by polling its status; its slot, or the failure in words. */
export async function waitForConfirmation(connection: Connection, signature: string, lastValidBlockHeight: number, instructionPrograms: string[] = []): Promise<number> {
  const deadline = Date.now() + CONFIRM_TIMEOUT_MS;
  for (;;) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const status = value[0];
    if (status?.err) throw new Error(`${describeTransactionError(status.err, { instructionPrograms })}. The transaction landed as failed; nothing changed`);
    if (status && (status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized")) return status.slot;
    if (Date.now() > deadline) throw new Error("The transaction was not confirmed in time; check it on the explorer");
    if (!status) {
      const height = await connection.getBlockHeight("confirmed").catch(() => 0);
      if (height > lastValidBlockHeight) throw new Error("The transaction expired before it landed (its blockhash is too old); nothing changed");
    }
    await sleep(POLL_MS);
  }
}

/**
 * Signs and sends each prepared transaction through the wallet and follows it
 * to `confirmed`, reporting each signature as it is known; the highest slot.
 */
export async function sendPrepared(
  connection: Connection,
  wallet: ConnectedWallet,
  prepared: PreparedTransactions,
  onSignature: (signature: string, index: number) => void,
): Promise<number> {
  let slot = 0;
  for (const [index, tx] of prepared.transactions.entries()) {
    let signature: string;
    try {
      signature = await wallet.sendTransaction(tx, connection, { preflightCommitment: "confirmed" });
    } catch (error) {
      throw new Error(describeSendError(error));
    }
    onSignature(signature, index);
    const programs = tx.instructions.map((ix) => ix.programId.toBase58());
    slot = Math.max(slot, await waitForConfirmation(connection, signature, prepared.lastValidBlockHeight, programs));
  }
  return slot;
}
