import { recordset, type Pending, type Writer } from "./writer";

export interface ScannedTransaction {
  signature: string;
  slot: bigint;
  blockTime: Date | null;
  failed: boolean;
  offerPdas: string[];
  /** Already in the finalized chain when read: never to be checked again. */
  finalized?: boolean;
}

/** Records that transactions have been applied, in one statement. */
export function recordScannedTransactions(sql: Writer, txs: readonly ScannedTransaction[]): Pending {
  const rows = txs.map((t) => ({
    signature: t.signature,
    slot: t.slot.toString(),
    block_time: t.blockTime?.toISOString() ?? null,
    failed: t.failed,
    offer_pdas: t.offerPdas,
    finalized: t.finalized ?? false,
  }));
  return sql`
    insert into scanned_transactions (signature, slot, block_time, failed, offer_pdas, finalized)
    select signature, slot, block_time, failed, offer_pdas, finalized
    from json_to_recordset(${recordset(rows)}::json)
      as t(signature text, slot bigint, block_time timestamptz, failed boolean, offer_pdas text[], finalized boolean)
    on conflict (signature) do nothing`;
}

/** Records that a transaction has been applied. */
export function recordScannedTransaction(sql: Writer, tx: ScannedTransaction): Pending {
  return recordScannedTransactions(sql, [tx]);
}

/** Which of these signatures have been applied already. */
export async function appliedSignatures(sql: Writer, signatures: string[]): Promise<Set<string>> {
  if (signatures.length === 0) return new Set();
  const rows = await sql<{ signature: string }[]>`
    select signature from scanned_transactions where signature = any(${signatures}::text[])`;
  return new Set(rows.map((r) => r.signature));
}

export interface Checkpoint {
  lastSignature: string | null;
  lastSlot: bigint | null;
}

export async function readCheckpoint(sql: Writer, programId: string): Promise<Checkpoint> {
  const [row] = await sql<{ last_signature: string | null; last_slot: string | null }[]>`
    select last_signature, last_slot::text from scanner_checkpoints where program_id = ${programId}`;
  return { lastSignature: row?.last_signature ?? null, lastSlot: row?.last_slot == null ? null : BigInt(row.last_slot) };
}

export function writeCheckpoint(sql: Writer, programId: string, c: Checkpoint): Pending {
  const slot = c.lastSlot?.toString() ?? null;
  return sql`
    insert into scanner_checkpoints (program_id, last_signature, last_slot, updated_at)
    values (${programId}, ${c.lastSignature}, ${slot}::bigint, now())
    on conflict (program_id) do update set last_signature = excluded.last_signature,
      last_slot = excluded.last_slot, updated_at = now()`;
}

/**
 * Applied transactions not yet known to be final, oldest first, up to a slot.
 * Ordered by the table's slot, not the output column of that name (the slot as
 * text, "100000" before "99999"): see newestScanned.
 */
export async function unfinalizedUpTo(sql: Writer, slot: bigint, limit: number): Promise<{ signature: string; slot: bigint }[]> {
  const rows = await sql<{ signature: string; slot: string }[]>`
    select signature, slot::text from scanned_transactions
    where not finalized and slot <= ${slot.toString()}::bigint order by scanned_transactions.slot limit ${limit}`;
  return rows.map((r) => ({ signature: r.signature, slot: BigInt(r.slot) }));
}

export function markFinalized(sql: Writer, signatures: string[]): Pending {
  return sql`update scanned_transactions set finalized = true where signature = any(${signatures}::text[])`;
}

/**
 * The newest applied transaction, for a checkpoint after its successors were undone.
 * The ORDER BY names the table's slot: the bare name is the output column, the
 * slot as text, which sorted every row ("999" after "1000") rather than reading
 * the slot index backwards.
 */
export async function newestScanned(sql: Writer): Promise<Checkpoint> {
  const [row] = await sql<{ signature: string; slot: string }[]>`
    select signature, slot::text from scanned_transactions
    order by scanned_transactions.slot desc, scanned_transactions.signature desc limit 1`;
  return { lastSignature: row?.signature ?? null, lastSlot: row ? BigInt(row.slot) : null };
}

/**
 * Undoes everything one applied transaction did, for a transaction the cluster
 * dropped: its fills are deleted and their amounts given back to their offers,
 * offers it created are deleted, offers it ended or closed are active or open
 * again. Aggregates follow by trigger. Run it inside a transaction.
 */
export async function undoTransaction(sql: Writer, signature: string): Promise<boolean> {
  const [tx] = await sql<{ offer_pdas: string[] }[]>`
    select offer_pdas from scanned_transactions where signature = ${signature}`;
  if (!tx) return false;
  const pdas = tx.offer_pdas;
  if (pdas.length > 0) {
    await sql`
      with removed as (
        delete from fills where signature = ${signature} returning offer_pda, fill_amount, slot
      ),
      given_back as (
        select r.offer_pda, sum(r.fill_amount) as amount from removed r
        join offers o on o.pda = r.offer_pda
        where o.account_slot is null or o.account_slot < r.slot
        group by r.offer_pda
      )
      update offers o set remaining_size = o.remaining_size + g.amount
      from given_back g where o.pda = g.offer_pda`;
    await sql`update offers set state = 'active', ended_signature = null
      where pda = any(${pdas}::text[]) and ended_signature = ${signature}`;
    await sql`update offers set closed_at = null, closed_signature = null
      where pda = any(${pdas}::text[]) and closed_signature = ${signature}`;
    await sql`delete from offers where pda = any(${pdas}::text[]) and created_signature = ${signature}`;
  }
  await sql`delete from scanned_transactions where signature = ${signature}`;
  return true;
}
