import { env } from "./env";
import { database } from "./runtime";
import { readChainIdentity } from "./store/chain-identity";

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
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getGenesisHash" }),
    signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
  });
  const body = (await response.json()) as { result?: unknown };
  return typeof body.result === "string" ? body.result : null;
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
