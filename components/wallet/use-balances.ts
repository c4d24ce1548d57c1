"use client";

import { type QueryClient, useQuery } from "@tanstack/react-query";
import { jsonRpc } from "@/lib/rpc/json-rpc";
import { paymentMintInfo, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "@/lib/program/constants";
import { useAppConfig } from "../data/app-config";

// A wallet's balances: SOL and every SPL token (both token programs), read
// through plain JSON-RPC (no web3.js in the wallet menu), one query per
// wallet. A confirmed action and a fill of the wallet's own offer (its live
// stream) invalidate it, so every form and the menu show the new amounts.

export interface TokenHolding {
  mint: string;
  /** Raw units, summed over the wallet's accounts of this mint. */
  amount: bigint;
  decimals: number;
}

export interface WalletBalances {
  lamports: bigint;
  tokens: Map<string, TokenHolding>;
}

interface ParsedTokenAccount {
  account: { data: { parsed?: { info?: { mint?: string; tokenAmount?: { amount?: string; decimals?: number } } } } };
}

const BALANCES_KEY = "balances";
const BALANCES_STALE_MS = 10_000;
/** Kept back from "Max" in SOL: network fees, new token accounts' rent and an offer's expiry bounty. */
const SOL_RESERVE_LAMPORTS = 20_000_000n;

async function readBalances(rpcUrl: string, owner: string, signal?: AbortSignal): Promise<WalletBalances> {
  const config = { encoding: "jsonParsed", commitment: "confirmed" };
  const [balance, ...programs] = await Promise.all([
    jsonRpc<{ value: number | string }>(rpcUrl, "getBalance", [owner, { commitment: "confirmed" }], signal),
    ...[TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS].map((programId) =>
      jsonRpc<{ value: ParsedTokenAccount[] }>(rpcUrl, "getTokenAccountsByOwner", [owner, { programId }, config], signal).catch(() => ({ value: [] })),
    ),
  ]);
  const tokens = new Map<string, TokenHolding>();
  for (const { value } of programs) {
    for (const item of value) {
      const info = item.account.data.parsed?.info;
      const mint = info?.mint;
      const amount = info?.tokenAmount?.amount;
      const decimals = info?.tokenAmount?.decimals;
      if (!mint || amount === undefined || decimals === undefined) continue;
      const held = tokens.get(mint);
      tokens.set(mint, { mint, amount: (held?.amount ?? 0n) + BigInt(amount), decimals });
    }
  }
  return { lamports: BigInt(balance.value), tokens };
}

export function useWalletBalances(owner: string | null | undefined) {
  const { rpcUrl } = useAppConfig();
  return useQuery({
    queryKey: [BALANCES_KEY, owner],
    queryFn: ({ signal }) => readBalances(rpcUrl as string, owner as string, signal),
    enabled: Boolean(rpcUrl && owner),
    staleTime: BALANCES_STALE_MS,
  });
}

/**
 * What the wallet can spend of a mint: its token accounts, and for wrapped
 * SOL also its SOL (the transaction wraps it); null while unknown.
 */
export function spendable(balances: WalletBalances | undefined, mint: string): bigint | null {
  if (!balances) return null;
  const held = balances.tokens.get(mint)?.amount ?? 0n;
  if (paymentMintInfo(mint)?.symbol !== "SOL") return held;
  // SOL beyond what fees, rent and the expiry bounty need.
  const free = balances.lamports - SOL_RESERVE_LAMPORTS;
  return held + (free > 0n ? free : 0n);
}

/** After a trade: every balance shown is read again. */
export function invalidateBalances(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [BALANCES_KEY] });
}
