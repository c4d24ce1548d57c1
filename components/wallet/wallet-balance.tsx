"use client";

import { useEffect, useState } from "react";
import { formatAmount } from "@/client/format";
import { lamportsOf } from "@/lib/rpc/json-rpc";

const SOL_DECIMALS = 9;

/** The connected wallet's SOL, read from the RPC when shown (one getBalance call each time the menu opens). */
export function SolBalance({ rpcUrl, address }: { rpcUrl: string; address: string }) {
  const [lamports, setLamports] = useState<bigint | null | "error">(null);

  useEffect(() => {
    const abort = new AbortController();
    lamportsOf(rpcUrl, address, abort.signal).then(setLamports, () => !abort.signal.aborted && setLamports("error"));
    return () => abort.abort();
  }, [rpcUrl, address]);

  const text = lamports === null ? "…" : lamports === "error" ? "unavailable" : `${formatAmount(lamports, SOL_DECIMALS).text} SOL`;
  return (
    <p className="flex justify-between px-3 py-2 text-sm">
      <span className="text-muted">Balance</span>
      <span className="font-mono" data-testid="wallet-balance" data-lamports={typeof lamports === "bigint" ? lamports.toString() : undefined}>
        {text}
      </span>
    </p>
  );
}
