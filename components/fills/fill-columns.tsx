import type { Fill } from "@/client/types";
import { Address } from "../ui/address";
import type { Column } from "../ui/data-table";
import { PairLink } from "../ui/pair-link";
import { TimeAgo } from "../ui/time";
import { FillPrice, TokenAmount, TokenSymbol } from "../ui/token";

// The columns a fill (or a wallet's trade, which is a fill) can show, for
// DataTable: the fills table and the portfolio's trades list theirs from here.

type FillRow = Pick<Fill, "blockTime" | "tokenMint" | "paymentMint" | "fillAmount" | "paymentAmount" | "feeAmount" | "signature">;

export const fillColumns = {
  time: (header = "Time"): Column<FillRow> => ({ header, className: "text-muted", cell: (f) => <TimeAgo iso={f.blockTime} /> }),
  pair: (): Column<FillRow> => ({ header: "Pair", cell: (f) => <PairLink tokenMint={f.tokenMint} paymentMint={f.paymentMint} /> }),
  price: (header = "Price"): Column<FillRow> => ({
    header,
    numeric: true,
    id: "price",
    cell: (f) => <FillPrice fillAmount={f.fillAmount} paymentAmount={f.paymentAmount} tokenMint={f.tokenMint} paymentMint={f.paymentMint} />,
  }),
  amount: (header = "Amount", showSymbol = false): Column<FillRow> => ({
    header,
    numeric: true,
    id: "amount",
    cell: (f) => <TokenAmount raw={f.fillAmount} mint={f.tokenMint} showSymbol={showSymbol} />,
  }),
  total: (header = "Total"): Column<FillRow> => ({
    header,
    numeric: true,
    id: "total",
    cell: (f) => (
      <>
        <TokenAmount raw={f.paymentAmount} mint={f.paymentMint} />{" "}
        <span className="text-xs text-muted">
          <TokenSymbol mint={f.paymentMint} />
        </span>
      </>
    ),
  }),
  fee: (header = "Fee"): Column<FillRow> => ({ header, numeric: true, id: "fee", className: "text-muted", cell: (f) => <TokenAmount raw={f.feeAmount} mint={f.paymentMint} /> }),
  tx: (header = "Tx"): Column<FillRow> => ({ header, cell: (f) => <Address value={f.signature} kind="tx" /> }),
};
