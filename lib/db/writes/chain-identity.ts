import type postgres from "postgres";

/** What makes a chain the one this database indexes. */
export interface ChainIdentity {
  genesisHash: string;
  programId: string;
  /** Null when not configured (the worker does not need it). */
  treasury: string | null;
}

/** How a person gets past a refused chain, named in every refusal. */
export const RESET_HINT = "point DATABASE_URL at a new database, or empty this one with `npm run db:reset -- --yes`";

/** The database records another chain than the one offered: nothing may be written to it. */
export class OtherChainError extends Error {
  override name = "OtherChainError";
  constructor(
    readonly recorded: ChainIdentity,
    readonly offered: ChainIdentity,
  ) {
    super(`this database indexes another chain (${describeChain(recorded)}) than the worker is configured for (${describeChain(offered)})`);
  }
}

export function describeChain(identity: ChainIdentity): string {
  return `genesis ${identity.genesisHash}, program ${identity.programId}${identity.treasury ? `, treasury ${identity.treasury}` : ""}`;
}

export async function readChainIdentity(sql: postgres.Sql): Promise<ChainIdentity | null> {
  const [row] = await sql<{ genesisHash: string; programId: string; treasury: string | null }[]>`
    select genesis_hash as "genesisHash", program_id as "programId", treasury from chain_identity where id = 1`;
  return row ? { genesisHash: row.genesisHash, programId: row.programId, treasury: row.treasury } : null;
}

/** Whether two identities name the same chain; a treasury only one side knows does not count against it. */
export function sameChain(a: ChainIdentity, b: ChainIdentity): boolean {
  return a.genesisHash === b.genesisHash && a.programId === b.programId && (a.treasury === null || b.treasury === null || a.treasury === b.treasury);
}

/**
 * Records `actual` as this database's chain if none is recorded yet (two
 * workers racing both end up comparing with the one row that won), and
 * throws an OtherChainError naming both identities when another chain is.
 * Call it before any write: a refused worker has written nothing.
 */
export async function ensureChainIdentity(sql: postgres.Sql, actual: ChainIdentity): Promise<ChainIdentity> {
  await sql`
    insert into chain_identity (id, genesis_hash, program_id, treasury)
    values (1, ${actual.genesisHash}, ${actual.programId}, ${actual.treasury})
    on conflict (id) do nothing`;
  const recorded = await readChainIdentity(sql);
  if (!recorded) throw new Error("chain_identity has no row after insert");
  if (!sameChain(recorded, actual)) {
    throw new OtherChainError(recorded, actual);
  }
  if (recorded.treasury === null && actual.treasury !== null) {
    await sql`update chain_identity set treasury = ${actual.treasury} where id = 1 and treasury is null`;
  }
  return recorded;
}

/** Whether the worker has written anything: a checkpoint, a transaction or an offer. */
export async function hasIndexedData(sql: postgres.Sql): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists (select 1 from scanner_checkpoints) or exists (select 1 from scanned_transactions) or exists (select 1 from offers) as found`;
  return Boolean(row?.found);
}

/**
 * Empties the index, the recorded chain included, as on a new database: rows
 * truncated, aggregates recomputed to zero. One transaction: a failure leaves
 * the index as it was.
 */
export async function emptyIndex(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`truncate offers, fills, candles, scanned_transactions, scanner_checkpoints, fill_slot_bounds, chain_identity`;
    await tx`select rebuild_aggregates()`;
    // The live feed starts afresh too; ids keep growing, and a reader resuming
    // from any id of the old index is told to refetch (event: reset).
    await tx`truncate feed_events`;
    await tx`update feed_retention set pruned_through = (select case when is_called then last_value else 0 end from feed_events_id_seq)`;
  });
}
