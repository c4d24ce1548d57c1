import { ACCOUNT_SIZE, AccountLayout, ASSOCIATED_TOKEN_PROGRAM_ID, MINT_SIZE, MintLayout } from "@solana/spl-token";
import { Connection, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import {
  decodeOfferAccount,
  derivedEscrowAddress,
  formatUnits,
  type OfferAccount,
  paymentMintInfo,
  TOKEN_PROGRAM_ADDRESS,
  WRAPPED_SOL_MINT,
} from "@/lib/program";

// What the trading forms read from the chain through the configured RPC,
// loaded only with them. The indexer's API shows the book; the chain decides
// what a transaction can do, so actions re-read it right before they run.

const connections = new Map<string, Connection>();

export function connectionFor(rpcUrl: string): Connection {
  let connection = connections.get(rpcUrl);
  if (!connection) {
    connection = new Connection(rpcUrl, { commitment: "confirmed" });
    connections.set(rpcUrl, connection);
  }
  return connection;
}

export interface OnChainOffer {
  address: PublicKey;
  account: OfferAccount;
  /** The account's owner: the offer program. */
  programId: PublicKey;
  /** Rent plus, while active, the expiry bounty; close_offer returns it to the maker. */
  lamports: bigint;
}

const BATCH_WINDOW_MS = 20;
let pendingReads: { connection: Connection; pdas: Set<string>; result: Promise<Map<string, OnChainOffer | null>> } | null = null;

/**
 * The offer as the program sees it now; null once close_offer deleted it.
 * Reads asked for together (a maker page's rows) share one getMultipleAccounts.
 */
export async function readOffer(connection: Connection, pda: string): Promise<OnChainOffer | null> {
  if (!pendingReads || pendingReads.connection !== connection) {
    const pdas = new Set<string>();
    const result = new Promise<Map<string, OnChainOffer | null>>((resolve, reject) => {
      setTimeout(() => {
        pendingReads = null;
        readOffers(connection, [...pdas]).then(resolve, reject);
      }, BATCH_WINDOW_MS);
    });
    pendingReads = { connection, pdas, result };
  }
  pendingReads.pdas.add(pda);
  return (await pendingReads.result).get(pda) ?? null;
}

export interface MintFacts {
  tokenProgram: PublicKey;
  decimals: number;
}

/** Each mint's token program (its account's owner) and decimals, in one call. */
export async function readMints(connection: Connection, mints: readonly string[]): Promise<Map<string, MintFacts>> {
  const unique = [...new Set(mints)];
  const infos = await connection.getMultipleAccountsInfo(unique.map((m) => new PublicKey(m)), "confirmed");
  const out = new Map<string, MintFacts>();
  unique.forEach((mint, i) => {
    const info = infos[i];
    const known = paymentMintInfo(mint)?.decimals;
    if (!info && known === undefined) throw new Error(`The mint ${mint} does not exist on this cluster`);
    out.set(mint, {
      tokenProgram: info?.owner ?? new PublicKey(TOKEN_PROGRAM_ADDRESS),
      decimals: info && info.data.length >= MINT_SIZE ? MintLayout.decode(info.data.subarray(0, MINT_SIZE)).decimals : (known as number),
    });
  });
  return out;
}

export function tokenProgramLookup(mints: Map<string, MintFacts>): (mint: PublicKey) => PublicKey {
  return (mint) => mints.get(mint.toBase58())?.tokenProgram ?? new PublicKey(TOKEN_PROGRAM_ADDRESS);
}

/** The offer's escrow: the token account of the escrowed mint the offer owns, else where the local cluster places it. */
export async function findEscrow(connection: Connection, offer: PublicKey, escrowMint: string, tokenProgram: PublicKey): Promise<PublicKey> {
  try {
    const owned = await connection.getTokenAccountsByOwner(offer, { mint: new PublicKey(escrowMint) }, "confirmed");
    const first = owned.value[0];
    if (first) return first.pubkey;
  } catch {
    // A node without the index answers with an error; the derivation still holds for the local cluster.
  }
  return derivedEscrowAddress(offer, tokenProgram);
}

/** A token account's amount; Token-2022 accounts share the classic layout's first 165 bytes. */
function tokenAccountAmount(data: Uint8Array): bigint {
  return AccountLayout.decode(data.subarray(0, ACCOUNT_SIZE)).amount;
}

/** What a token account holds now (0 when it does not exist). */
export async function tokenAccountBalance(connection: Connection, address: PublicKey): Promise<bigint> {
  const info = await connection.getAccountInfo(address, "confirmed");
  return info && info.data.length >= ACCOUNT_SIZE ? tokenAccountAmount(info.data) : 0n;
}

export async function tokenBalance(connection: Connection, owner: PublicKey, mint: string): Promise<bigint> {
  const accounts = await connection.getTokenAccountsByOwner(owner, { mint: new PublicKey(mint) }, "confirmed");
  return accounts.value.reduce((sum, a) => sum + tokenAccountAmount(a.account.data), 0n);
}

export interface BalanceNeed {
  /** A mint, or "SOL" for lamports. */
  mint: string;
  amount: bigint;
  decimals: number;
  symbol: string;
}

/**
 * The first thing the wallet lacks, in words, or null. A need in wrapped SOL
 * may be met by wrapped SOL already held or by SOL (the transaction wraps it):
 * callers count it in SOL when they wrap.
 */
export async function checkBalances(connection: Connection, owner: PublicKey, needs: readonly BalanceNeed[]): Promise<string | null> {
  for (const need of needs) {
    if (need.amount <= 0n) continue;
    const have = need.mint === "SOL" ? BigInt(await connection.getBalance(owner, "confirmed")) : await tokenBalance(connection, owner, need.mint);
    if (have < need.amount) {
      return `Not enough ${need.symbol}: this needs ${formatUnits(need.amount, need.decimals)}, the wallet holds ${formatUnits(have, need.decimals)}`;
    }
  }
  return null;
}

/** Lamports to keep a token account rent-exempt, for accounts a transaction may create. */
export async function tokenAccountRent(connection: Connection): Promise<bigint> {
  return BigInt(await connection.getMinimumBalanceForRentExemption(ACCOUNT_SIZE));
}

export const SOL = { mint: "SOL", decimals: 9, symbol: "SOL" } as const;
export const isSol = (mint: string) => mint === WRAPPED_SOL_MINT;

/**
 * Rent for the associated token accounts the instructions would create
 * (createIdempotent of an account that does not exist yet): the payer funds them.
 */
export async function rentForNewTokenAccounts(connection: Connection, instructions: readonly TransactionInstruction[]): Promise<bigint> {
  const created = instructions.filter((ix) => ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)).map((ix) => ix.keys[1]?.pubkey as PublicKey);
  if (created.length === 0) return 0n;
  const unique = [...new Map(created.map((k) => [k.toBase58(), k])).values()];
  const infos = await connection.getMultipleAccountsInfo(unique, "confirmed");
  const missing = infos.filter((i) => i === null).length;
  return missing === 0 ? 0n : BigInt(missing) * (await tokenAccountRent(connection));
}

/** Offer accounts by address, 100 per call (the RPC's limit); null for those closed. */
export async function readOffers(connection: Connection, pdas: readonly string[]): Promise<Map<string, OnChainOffer | null>> {
  const out = new Map<string, OnChainOffer | null>();
  for (let i = 0; i < pdas.length; i += 100) {
    const chunk = pdas.slice(i, i + 100);
    const infos = await connection.getMultipleAccountsInfo(chunk.map((p) => new PublicKey(p)), "confirmed");
    chunk.forEach((pda, j) => {
      const info = infos[j];
      const account = info ? decodeOfferAccount(info.data) : null;
      out.set(pda, info && account ? { address: new PublicKey(pda), account, programId: info.owner, lamports: BigInt(info.lamports) } : null);
    });
  }
  return out;
}

let clock: { at: number; now: Promise<bigint> } | null = null;
const CLOCK_REUSE_MS = 2_000;

/** The cluster's clock (the latest block's time), which the program's expiry checks use; the local clock when the node cannot say. */
export function chainNow(connection: Connection): Promise<bigint> {
  if (!clock || Date.now() - clock.at > CLOCK_REUSE_MS) clock = { at: Date.now(), now: readChainNow(connection) };
  return clock.now;
}

async function readChainNow(connection: Connection): Promise<bigint> {
  try {
    const time = await connection.getBlockTime(await connection.getSlot("confirmed"));
    if (time !== null) return BigInt(time);
  } catch {
    // fall through
  }
  return BigInt(Math.floor(Date.now() / 1000));
}
