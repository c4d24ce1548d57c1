import { env } from "../platform/env";
import { database } from "./services";
import { readChainIdentity } from "../lib/db/writes/chain-identity";
import { jsonRpc } from "../lib/rpc/json-rpc";

// The web process learns the followed chain's genesis hash once: from the
// chain identity the worker records in the database (no RPC call), else from
// the RPC's getGenesisHash. A known hash never changes for a process; a
// failed look-up is retried after a pause, not on every page.

const RETRY_AFTER_MS = 30_000;
const RPC_TIMEOUT_MS = 1_500;

let known: string | undefined;
let pending: Promise<string | null> | undefined;
let failedAt = 0;

async function fromDatabase(): Promise<string | null> {
  const identity = await readChainIdentity(database().$client);
  return identity?.genesisHash ?? null;
}

async function fromRpc(url: string): Promise<string | null> {
  const hash = await jsonRpc<unknown>(url, "getGenesisHash", [], AbortSignal.timeout(RPC_TIMEOUT_MS));
  return typeof hash === "string" ? hash : null;
}

async function lookUp(): Promise<string | null> {
  const fromDb = await fromDatabase().catch(() => null);
  if (fromDb) return fromDb;
  const url = env().SOLANA_RPC_URL;
  return url ? fromRpc(url).catch(() => null) : null;
}

/** The followed chain's genesis hash, or null while neither the database nor the RPC can tell. */
export async function clusterGenesisHash(): Promise<string | null> {
  if (known) return known;
  // Prerendering at build (the not-found page) talks to no database or RPC.
  if (process.env.NEXT_PHASE === "phase-production-build") return null;
  if (Date.now() - failedAt < RETRY_AFTER_MS) return null;
  pending ??= lookUp().finally(() => (pending = undefined));
  const hash = await pending;
  if (hash) known = hash;
  else failedAt = Date.now();
  return hash;
}
