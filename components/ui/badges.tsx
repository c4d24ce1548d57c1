import type { OfferStatus, Side } from "@/client/types";

const STATUS_STYLE: Record<OfferStatus, string> = {
  open: "bg-bid/15 text-bid ring-bid/30",
  filled: "bg-accent/15 text-accent ring-accent/30",
  expired: "bg-raised text-muted ring-line",
  cancelled: "bg-ask/10 text-ask ring-ask/25",
};

export function StatusBadge({ status }: { status: OfferStatus }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium capitalize ring-1 ring-inset ${STATUS_STYLE[status]}`} data-status={status}>
      {status}
    </span>
  );
}

/** A sell offer is an ask (the maker sells tokens), a buy offer a bid. */
export function SideBadge({ side }: { side: Side }) {
  return side === "sell" ? (
    <span className="inline-flex rounded px-1.5 py-0.5 text-xs font-semibold uppercase text-ask bg-ask/10">ask</span>
  ) : (
    <span className="inline-flex rounded px-1.5 py-0.5 text-xs font-semibold uppercase text-bid bg-bid/10">bid</span>
  );
}
