import { existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { dataDir } from "../../platform/data-dir";
import { connect, disconnect } from "../../lib/db/client";
import { emptyIndex, hasIndexedData, readChainIdentity } from "../../lib/db/writes";
import { ledgerAgreesWithIndex } from "./chain-agreement";
import { ledgerPath, readJournalHeader } from "../../local/cluster/journal";

/** Where `npm start` keeps the local demo cluster's ledger (LOCALNET_DATA_DIR overrides). */
export function localnetDataDir(): string {
  return process.env.LOCALNET_DATA_DIR ? path.resolve(process.env.LOCALNET_DATA_DIR) : dataDir("localnet");
}

/**
 * Before `npm start` runs the local cluster on `dataDir`: when the kept ledger
 * and the index are not of one chain (either was deleted, or the ledger was
 * made anew), both start afresh (the index emptied, the ledger removed)
 * rather than mixing two chains. Returns the one line to tell, or null when
 * they agree.
 */
export async function startFreshUnlessLedgerAgrees(databaseUrl: string, dataDir: string): Promise<string | null> {
  const header = readJournalHeader(dataDir);
  const ledger = header && { genesisHash: header.genesisHash, programId: header.programId, treasury: header.treasury };
  const db = connect(databaseUrl, { max: 1, applicationName: "offer-book-start" });
  try {
    const sql = db.$client;
    const agreement = ledgerAgreesWithIndex(ledger, await readChainIdentity(sql), await hasIndexedData(sql));
    if (agreement.agree) return null;
    await emptyIndex(sql);
    rmSync(dataDir, { recursive: true, force: true });
    return `${agreement.reason}: starting both afresh (index emptied, new ledger in ${dataDir})`;
  } finally {
    await disconnect(db);
  }
}

/** A line to say before a long replay of the kept ledger (null when there is none), so a quiet start is not taken for a hang. */
export function describeKeptLedger(dataDir: string): string | null {
  const file = ledgerPath(dataDir);
  if (!existsSync(file) || !readJournalHeader(dataDir)) return null;
  const megabytes = statSync(file).size / 1e6;
  // About 680 bytes a transaction, replayed with 0.5 s of CPU per 1,000 here, slower on a busy machine.
  const transactions = Math.round((megabytes * 1e6) / 680);
  return `continuing the chain kept in ${dataDir} (${megabytes.toFixed(1)} MB, about ${transactions.toLocaleString("en")} transactions to replay, ${Math.max(1, Math.round(transactions / 1000))} s)`;
}
