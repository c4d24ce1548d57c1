import type { Offer } from "@/client/types";
import { OfferActionsSlot } from "../trade/trade-entry";
import { Address } from "../ui/address";
import { SideBadge, StatusBadge } from "../ui/badges";
import type { Column } from "../ui/data-table";
import { PairLink } from "../ui/pair-link";
import { Countdown, TimeAgo } from "../ui/time";
import { OfferPrice, TokenAmount } from "../ui/token";

// The columns an offer can show, for DataTable: the maker page's offers and
// the portfolio's open offers and offer history list theirs from here.

export const offerColumns = {
  address: (header = "Offer"): Column<Offer> => ({ header, cell: (o) => <Address value={o.pda} href={`/offers/${o.pda}`} /> }),
  pair: (): Column<Offer> => ({ header: "Pair", cell: (o) => <PairLink tokenMint={o.tokenMint} paymentMint={o.paymentMint} /> }),
  side: (): Column<Offer> => ({ header: "Side", cell: (o) => <SideBadge side={o.side} /> }),
  price: (header = "Price"): Column<Offer> => ({ header, numeric: true, id: "price", cell: (o) => <OfferPrice price={o} tokenMint={o.tokenMint} paymentMint={o.paymentMint} /> }),
  remaining: (header = "Remaining"): Column<Offer> => ({ header, numeric: true, id: "remaining", cell: (o) => <TokenAmount raw={o.remainingSize} mint={o.tokenMint} /> }),
  size: (header = "Size"): Column<Offer> => ({ header, numeric: true, id: "size", className: "text-muted", cell: (o) => <TokenAmount raw={o.originalSize} mint={o.tokenMint} /> }),
  /** What of the size is left (open offers) or was filled (past ones), over the size. */
  ofSize: (part: "remaining" | "filled", header: string): Column<Offer> => ({
    header,
    numeric: true,
    id: part,
    cell: (o) => (
      <>
        <TokenAmount raw={part === "remaining" ? o.remainingSize : (BigInt(o.originalSize) - BigInt(o.remainingSize)).toString()} mint={o.tokenMint} /> /{" "}
        <TokenAmount raw={o.originalSize} mint={o.tokenMint} />
      </>
    ),
  }),
  status: (): Column<Offer> => ({ header: "Status", cell: (o) => <StatusBadge status={o.status} /> }),
  created: (): Column<Offer> => ({ header: "Created", className: "text-muted", cell: (o) => <TimeAgo iso={o.createdAt} /> }),
  /** The time left of an open offer ("—" for an ended one). */
  expires: (): Column<Offer> => ({ header: "Expires", className: "text-muted", cell: (o) => (o.status === "open" ? <Countdown iso={o.expiresAt} /> : "—") }),
  actions: (): Column<Offer> => ({ header: <span className="sr-only">Actions</span>, cell: (o) => <OfferActionsSlot offer={o} /> }),
};
