"use client";

import { PAYMENT_MINTS, type PaymentMint } from "@/lib/program/constants";
import type { ClusterKind } from "@/client/cluster";
import { useAppConfig } from "../data/app-config";

/** How a payment mint is named wherever one is chosen: the devnet USDC says so, the rest by symbol. */
export function paymentMintLabel(mint: Pick<PaymentMint, "symbol" | "network">): string {
  return mint.network === "devnet" ? `${mint.symbol} (devnet)` : mint.symbol;
}

/**
 * One choice per symbol (one "USDC", not two): the mint of this cluster's
 * network (devnet's USDC on devnet, mainnet's elsewhere), plus `keep` (a
 * book's own payment mint) when it is the other one.
 */
export function paymentMintChoices(cluster: ClusterKind, keep?: string): PaymentMint[] {
  const network = cluster === "devnet" ? "devnet" : "mainnet";
  const bySymbol = new Map<string, PaymentMint>();
  for (const m of PAYMENT_MINTS) {
    const chosen = bySymbol.get(m.symbol);
    if (!chosen || (chosen.network !== network && m.network === network)) bySymbol.set(m.symbol, m);
  }
  const choices = [...bySymbol.values()];
  const kept = PAYMENT_MINTS.find((m) => m.address === keep);
  if (kept && !choices.includes(kept)) choices.push(kept);
  return choices;
}

/** The `<option>`s of the payment mints the program accepts, for any `<select>` of one. */
export function PaymentMintOptions({ keep }: { keep?: string }) {
  const { cluster } = useAppConfig();
  return paymentMintChoices(cluster, keep).map((m) => (
    <option key={m.address} value={m.address}>
      {paymentMintLabel(m)} · {m.name}
    </option>
  ));
}
