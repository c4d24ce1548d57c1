import { describe, expect, it } from "vitest";
import { summarizeTrades, walletDirection, type WalletTradeRow } from "../../components/portfolio/trade-summary";

const base = { signature: "s", ixIndex: 0, offerPda: "o", maker: "m", taker: "t", blockTime: "2026-01-01T00:00:00Z", slot: "1", tokenMint: "T", paymentMint: "P" };

function trade(role: WalletTradeRow["role"], side: "buy" | "sell", fill: bigint, payment: bigint, fee: bigint): WalletTradeRow {
  return { ...base, role, side, fillAmount: fill.toString(), paymentAmount: payment.toString(), feeAmount: fee.toString() };
}

describe("portfolio trade summary", () => {
  it("reads the wallet's direction from its role and the offer's side", () => {
    expect(walletDirection({ role: "maker", side: "sell" })).toBe("sell");
    expect(walletDirection({ role: "taker", side: "sell" })).toBe("buy");
    expect(walletDirection({ role: "taker", side: "buy" })).toBe("sell");
    expect(walletDirection({ role: "both", side: "buy" })).toBe("buy");
  });

  it("sums amount, value and the fees the seller bore, per pair and direction", () => {
    const rows = summarizeTrades([trade("maker", "sell", 10n, 20n, 1n), trade("taker", "buy", 5n, 15n, 1n), trade("taker", "sell", 4n, 8n, 1n)]);
    const sold = rows.find((r) => r.direction === "sell")!;
    const bought = rows.find((r) => r.direction === "buy")!;
    expect(sold).toMatchObject({ trades: 2, amount: 15n, value: 35n, fees: 2n });
    expect(bought).toMatchObject({ trades: 1, amount: 4n, value: 8n, fees: 0n });
  });
});
