import type { Fill } from "@/client/types";

// A wallet's trades summed per pair and direction, for the portfolio: how
// much it bought and sold, the value in the payment mint, the average price
// (value over amount, exact raw sums; the page turns them into a price) and
// the fees it bore. The fee comes out of the payment the token seller
// receives: a sell offer's maker, a buy offer's taker.

export type WalletRole = "maker" | "taker" | "both";

export interface WalletTradeRow extends Fill {
  role: WalletRole;
}

/** Whether the wallet bought or sold tokens in this fill; a self-trade (role both) counts as the maker's side. */
export function walletDirection(trade: Pick<WalletTradeRow, "role" | "side">): "buy" | "sell" {
  if (trade.role === "taker") return trade.side === "sell" ? "buy" : "sell";
  return trade.side;
}

export interface PairSummary {
  tokenMint: string;
  paymentMint: string;
  direction: "buy" | "sell";
  trades: number;
  /** Raw tokens. */
  amount: bigint;
  /** Raw payment units, gross. */
  value: bigint;
  /** Raw payment units the wallet bore as fees. */
  fees: bigint;
}

export function summarizeTrades(trades: readonly WalletTradeRow[]): PairSummary[] {
  const rows = new Map<string, PairSummary>();
  for (const t of trades) {
    const direction = walletDirection(t);
    const key = `${t.tokenMint}/${t.paymentMint}/${direction}`;
    const row = rows.get(key) ?? { tokenMint: t.tokenMint, paymentMint: t.paymentMint, direction, trades: 0, amount: 0n, value: 0n, fees: 0n };
    row.trades += 1;
    row.amount += BigInt(t.fillAmount);
    row.value += BigInt(t.paymentAmount);
    if (direction === "sell") row.fees += BigInt(t.feeAmount);
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => (a.value === b.value ? 0 : a.value > b.value ? -1 : 1));
}
