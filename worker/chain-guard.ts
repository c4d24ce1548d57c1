import type postgres from "postgres";
import { StartupError, exitWithOneLine } from "../platform/startup-error";
import { ensureChainIdentity, OtherChainError, RESET_HINT } from "../lib/db/writes";
import type { ProgramRpc } from "./rpc";

/** The worker's exit code when it refuses to write (another chain, or no migrations): restarting it cannot help. */
export const EXIT_REFUSED = 3;

/**
 * One chain per database: asks the RPC for its genesis hash and compares it,
 * with the program and treasury configured, to the chain the database
 * indexes (recording it on a first start). Another chain ends the process
 * with one line naming both and the way out, before anything is written.
 * RPC failures are retried as every read is; a shutdown meanwhile
 * returns false (nothing checked, nothing to scan).
 */
export async function refuseAnotherChain(
  sql: postgres.Sql,
  rpc: ProgramRpc,
  configured: { programId: string; treasury: string | undefined },
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const genesisHash = await rpc.genesisHash();
    await ensureChainIdentity(sql, { genesisHash, programId: configured.programId, treasury: configured.treasury ?? null });
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    if (error instanceof OtherChainError) exitWithOneLine("worker", new StartupError(error.message, RESET_HINT), EXIT_REFUSED);
    if ((error as { code?: string }).code === "42P01") {
      exitWithOneLine("worker", new StartupError("the database has no chain_identity table: its migrations are not applied", "run `npm run db:migrate`"), EXIT_REFUSED);
    }
    throw error;
  }
}
