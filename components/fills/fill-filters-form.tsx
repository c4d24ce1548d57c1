"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { PaymentMintOptions } from "../ui/payment-mint-options";
import { fillsHref, unixToUtcInput, utcInputToUnix, type FillFilterValues } from "@/client/fill-filters";

const input =
  "h-9 w-full rounded-lg border border-line bg-panel px-3 text-sm outline-none placeholder:text-muted focus:border-accent focus:ring-2 focus:ring-accent/30";

const PRESETS = [
  { label: "1h", seconds: 3_600 },
  { label: "24h", seconds: 86_400 },
  { label: "7d", seconds: 604_800 },
];

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The filters of the fills feed; applying one is a navigation, so the URL always says what is shown. */
export function FillFiltersForm({ values, tokenOptions }: { values: FillFilterValues; tokenOptions: { mint: string; label: string }[] }) {
  const router = useRouter();
  const [draft, setDraft] = useState({
    tokenMint: values.tokenMint ?? "",
    paymentMint: values.paymentMint ?? "",
    maker: values.maker ?? "",
    taker: values.taker ?? "",
    from: unixToUtcInput(values.fromTime),
    to: unixToUtcInput(values.toTime),
  });
  // On a phone the seven fields fold away behind one button (open when a filter is set); wider screens always show them.
  const active = Object.entries(values).filter(([k, v]) => k !== "cursor" && v).length;
  const [open, setOpen] = useState(false);
  const set = (key: keyof typeof draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));

  const go = (next: FillFilterValues) => router.push(fillsHref(next));

  function submit(event: FormEvent) {
    event.preventDefault();
    go({
      tokenMint: draft.tokenMint.trim(),
      paymentMint: draft.paymentMint,
      maker: draft.maker.trim(),
      taker: draft.taker.trim(),
      fromTime: utcInputToUnix(draft.from),
      toTime: utcInputToUnix(draft.to),
    });
  }

  const preset = (seconds: number) => {
    const now = nowSeconds();
    go({ ...values, cursor: undefined, fromTime: String(now - seconds), toTime: undefined });
  };

  return (
    <>
    <button
      type="button"
      className="flex w-full items-center justify-between px-4 py-3 text-sm font-medium sm:hidden"
      aria-expanded={open}
      aria-controls="fill-filters"
      onClick={() => setOpen((o) => !o)}
      data-testid="filters-toggle"
    >
      <span>{open ? "Hide filters" : "Show filters"}{active > 0 ? ` (${active} set)` : ""}</span>
      <span aria-hidden>{open ? "▴" : "▾"}</span>
    </button>
    <form id="fill-filters" onSubmit={submit} className={`${open ? "grid" : "hidden"} gap-3 p-4 sm:grid sm:grid-cols-2 lg:grid-cols-3`} aria-label="Filter fills">
      <label className="text-xs font-medium text-muted">
        Token mint
        <input className={`${input} mt-1 font-mono`} list="fill-token-options" value={draft.tokenMint} onChange={set("tokenMint")} name="tokenMint" placeholder="Any token" spellCheck={false} />
        <datalist id="fill-token-options">
          {tokenOptions.map((t) => (
            <option key={t.mint} value={t.mint}>
              {t.label}
            </option>
          ))}
        </datalist>
      </label>
      <label className="text-xs font-medium text-muted">
        Payment mint
        <select className={`${input} mt-1`} value={draft.paymentMint} onChange={set("paymentMint")} name="paymentMint">
          <option value="">Any payment mint</option>
          <PaymentMintOptions keep={draft.paymentMint} />
        </select>
      </label>
      <label className="text-xs font-medium text-muted">
        Maker
        <input className={`${input} mt-1 font-mono`} value={draft.maker} onChange={set("maker")} name="maker" placeholder="Any maker wallet" spellCheck={false} />
      </label>
      <label className="text-xs font-medium text-muted">
        Taker
        <input className={`${input} mt-1 font-mono`} value={draft.taker} onChange={set("taker")} name="taker" placeholder="Any taker wallet" spellCheck={false} />
      </label>
      <label className="text-xs font-medium text-muted">
        From (UTC)
        <input type="datetime-local" className={`${input} mt-1`} value={draft.from} onChange={set("from")} name="from" />
      </label>
      <label className="text-xs font-medium text-muted">
        To (UTC)
        <input type="datetime-local" className={`${input} mt-1`} value={draft.to} onChange={set("to")} name="to" />
      </label>
      <div className="flex flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-3">
        <button type="submit" className="h-9 rounded-lg bg-accent px-4 text-sm font-medium text-on-accent hover:opacity-90">
          Apply filters
        </button>
        <button type="button" onClick={() => go({})} className="h-9 rounded-lg border border-line px-3 text-sm hover:bg-raised">
          Clear
        </button>
        <span className="ml-2 text-xs text-muted">Last</span>
        {PRESETS.map((p) => (
          <button key={p.label} type="button" onClick={() => preset(p.seconds)} className="h-8 rounded-md border border-line px-2.5 text-xs hover:bg-raised">
            {p.label}
          </button>
        ))}
      </div>
    </form>
    </>
  );
}
