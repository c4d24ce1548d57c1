"use client";

import { formatUnits, paymentMintInfo } from "@/lib/program";
import { shortAddress } from "@/client/format";
import { useToken } from "../data/tokens";

/** A mint's symbol: the token provider's, the payment mint table's, or a short address. */
export function useMintSymbol(mint: string): string {
  const token = useToken(mint);
  return token?.symbol ?? paymentMintInfo(mint)?.symbol ?? shortAddress(mint);
}

interface ExactAmountProps {
  raw: bigint;
  decimals: number;
  /** A mint, or "SOL" for lamports. */
  mint: string;
  testId?: string;
}

/** An exact amount in whole tokens with its symbol; the raw value on hover. */
export function ExactAmount(props: ExactAmountProps) {
  return props.mint === "SOL" ? <AmountText {...props} symbol="SOL" /> : <TokenExactAmount {...props} />;
}

function TokenExactAmount(props: ExactAmountProps) {
  return <AmountText {...props} symbol={useMintSymbol(props.mint)} />;
}

function AmountText({ raw, decimals, symbol, testId }: ExactAmountProps & { symbol: string }) {
  return (
    <span className="font-medium tabular" title={`${raw.toString()} raw`} data-testid={testId} data-raw={raw.toString()}>
      {formatUnits(raw, decimals)} {symbol}
    </span>
  );
}

export function SummaryRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-b border-line py-1.5 last:border-0">
      <dt className="text-muted">{label}</dt>
      <dd className="text-right">{children}</dd>
    </div>
  );
}
