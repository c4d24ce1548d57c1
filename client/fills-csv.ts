import { formatUnits } from "../lib/program/units";
import { toCsv } from "./csv";
import { fillPrice } from "./price";
import type { Fill, Token } from "./types";

export const FILL_CSV_HEADER = [
  "blockTime",
  "signature",
  "ixIndex",
  "slot",
  "offerPda",
  "maker",
  "taker",
  "side",
  "tokenMint",
  "tokenSymbol",
  "paymentMint",
  "paymentSymbol",
  "fillAmount",
  "paymentAmount",
  "feeAmount",
  "price",
  "fillAmountRaw",
  "paymentAmountRaw",
  "feeAmountRaw",
] as const;

const human = (raw: string, decimals: number | null | undefined) => (decimals == null ? "" : formatUnits(BigInt(raw), decimals));

/** The rows as shown, exact: human amounts (empty when decimals are unknown) beside the raw units. */
export function fillsCsv(fills: readonly Fill[], tokens: ReadonlyMap<string, Token>): string {
  const rows = fills.map((f) => {
    const token = tokens.get(f.tokenMint);
    const payment = tokens.get(f.paymentMint);
    return [
      f.blockTime,
      f.signature,
      String(f.ixIndex ?? 0),
      f.slot,
      f.offerPda,
      f.maker ?? "",
      f.taker,
      f.side,
      f.tokenMint,
      token?.symbol ?? "",
      f.paymentMint,
      payment?.symbol ?? "",
      human(f.fillAmount, token?.decimals),
      human(f.paymentAmount, payment?.decimals),
      human(f.feeAmount, payment?.decimals),
      fillPrice(f.fillAmount, f.paymentAmount, token?.decimals, payment?.decimals) ?? "",
      f.fillAmount,
      f.paymentAmount,
      f.feeAmount,
    ];
  });
  return toCsv(FILL_CSV_HEADER, rows);
}
