import { formatAmount, displayDecimal, groupThousands } from "@/client/format";

/** A raw token amount shown in whole tokens; the exact value and the raw units are in the tooltip. */
export function Amount({ raw, decimals, symbol, className = "" }: { raw: string; decimals: number | null | undefined; symbol?: string; className?: string }) {
  const f = formatAmount(raw, decimals);
  const title = f.rawOnly ? `${f.raw} raw units (decimals unknown)` : `${f.exact}${symbol ? ` ${symbol}` : ""}\nraw: ${f.raw}`;
  return (
    <span className={`tabular whitespace-nowrap ${className}`} title={title} data-raw={raw}>
      {f.text}
      {f.rawOnly && <span className="ml-1 rounded bg-raised px-1 text-[10px] font-medium uppercase text-warn">raw</span>}
      {symbol && !f.rawOnly && <span className="text-muted"> {symbol}</span>}
    </span>
  );
}

/** A price in payment per whole token; `raw` is the program's price (raw payment units per raw token unit). */
export function Price({ value, raw, className = "" }: { value: string | null; raw: string; className?: string }) {
  if (value === null) {
    return (
      <span className={`tabular ${className}`} title={`raw price ${raw} (decimals unknown)`}>
        {displayDecimal(raw)}
        <span className="ml-1 rounded bg-raised px-1 text-[10px] font-medium uppercase text-warn">raw</span>
      </span>
    );
  }
  return (
    <span className={`tabular whitespace-nowrap ${className}`} title={`${groupThousands(value)}\nraw: ${raw} per raw unit`} data-price={value}>
      {displayDecimal(value, { compact: false })}
    </span>
  );
}
