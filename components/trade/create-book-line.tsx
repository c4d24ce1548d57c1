"use client";

import type { CreatePreview } from "@/lib/program";
import { ExactAmount, SummaryRow, useMintSymbol } from "./amounts";

/** The line a new offer adds to its side of the book, exact. */
export function CreateBookLine({ preview, tokenDecimals, paymentDecimals, tokenMint, paymentMint }: { preview: CreatePreview; tokenDecimals: number; paymentDecimals: number; tokenMint: string; paymentMint: string }) {
  const line = preview.bookLine;
  const paymentSymbol = useMintSymbol(paymentMint);
  return (
    <dl data-testid="create-book-line" data-side={line.side} data-price-per-token={preview.args.pricePerToken.toString()} data-price-scale={preview.args.priceScale}>
      <SummaryRow label={line.side === "sell" ? "Ask at" : "Bid at"}>
        <span className="font-medium tabular" data-testid="create-price">
          {line.humanPrice} {paymentSymbol}
        </span>
      </SummaryRow>
      <SummaryRow label="Size">
        <ExactAmount raw={line.size} decimals={tokenDecimals} mint={tokenMint} testId="create-line-size" />
      </SummaryRow>
      <SummaryRow label="Total">
        <ExactAmount raw={line.total} decimals={paymentDecimals} mint={paymentMint} testId="create-line-total" />
      </SummaryRow>
      <SummaryRow label="Minimum fill">
        <ExactAmount raw={line.minFill} decimals={tokenDecimals} mint={tokenMint} />
      </SummaryRow>
      <SummaryRow label="Expires">
        <span data-testid="create-line-expiry">{new Date(Number(line.expiresAt) * 1000).toISOString().replace("T", " ").slice(0, 16)} UTC</span>
      </SummaryRow>
      <SummaryRow label="Escrowed now">
        <ExactAmount raw={preview.escrow.amount} decimals={preview.escrow.mint === tokenMint ? tokenDecimals : paymentDecimals} mint={preview.escrow.mint} testId="create-escrow" />
      </SummaryRow>
    </dl>
  );
}
