"use client";

import { formatAmount } from "@/client/format";
import { tokenLabel, useToken } from "../data/tokens";
import { type TokenHolding, useWalletBalances } from "./use-balances";

const SOL_DECIMALS = 9;

function TokenLine({ holding }: { holding: TokenHolding }) {
  const token = useToken(holding.mint);
  return (
    <p className="flex justify-between gap-3 px-3 py-1 text-sm">
      <span className="truncate text-muted" title={holding.mint}>
        {tokenLabel(token, holding.mint)}
      </span>
      <span className="font-mono tabular" data-testid="wallet-token-balance" data-mint={holding.mint} data-raw={holding.amount.toString()}>
        {formatAmount(holding.amount, holding.decimals).text}
      </span>
    </p>
  );
}

/** The connected wallet's SOL and SPL token balances (tokens it holds none of are left out). */
export function WalletBalances({ address }: { address: string }) {
  const { data, isError } = useWalletBalances(address);
  const lamports = data?.lamports;
  const text = isError ? "unavailable" : lamports === undefined ? "…" : `${formatAmount(lamports, SOL_DECIMALS).text} SOL`;
  const held = data ? [...data.tokens.values()].filter((t) => t.amount > 0n).sort((a, b) => a.mint.localeCompare(b.mint)) : [];
  return (
    <div className="border-b border-line pb-1" data-testid="wallet-balances">
      <p className="flex justify-between px-3 py-2 text-sm">
        <span className="text-muted">Balance</span>
        <span className="font-mono" data-testid="wallet-balance" data-lamports={lamports?.toString()}>
          {text}
        </span>
      </p>
      {held.length > 0 && (
        // Plain blocks, not a list: inside role="menu" only menu items and groups may be roles.
        <div className="max-h-48 overflow-y-auto">
          {held.map((h) => (
            <TokenLine key={h.mint} holding={h} />
          ))}
        </div>
      )}
    </div>
  );
}
