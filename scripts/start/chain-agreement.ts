import { type ChainIdentity, describeChain, sameChain } from "../../lib/db/writes/chain-identity";

export type Agreement = { agree: true } | { agree: false; reason: string };

/**
 * Whether a kept local ledger and the index can go on together: the index
 * must be empty or of the ledger's chain. `ledger` is null when no ledger is
 * kept (a new one will start), `recorded` the chain the index records,
 * `indexed` whether it holds any rows at all (an index written before chains
 * were recorded has rows but no chain).
 */
export function ledgerAgreesWithIndex(ledger: ChainIdentity | null, recorded: ChainIdentity | null, indexed: boolean): Agreement {
  if (!recorded && !indexed) return { agree: true };
  if (!ledger) {
    return { agree: false, reason: `the index holds ${recorded ? `chain ${describeChain(recorded)}` : "an earlier chain"} but its local ledger is gone` };
  }
  if (!recorded) return { agree: false, reason: `the index holds rows of an unrecorded chain, not of the kept ledger (${describeChain(ledger)})` };
  if (sameChain(recorded, ledger)) return { agree: true };
  return { agree: false, reason: `the index holds chain ${describeChain(recorded)}, the kept ledger is chain ${describeChain(ledger)}` };
}
