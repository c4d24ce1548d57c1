"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { api } from "@/client/api";
import { shortAddress } from "@/client/format";
import type { Token } from "@/client/types";
import { fetchTokens } from "../data/tokens";

// Where a token mint is asked: type a symbol ("orca"), a name or paste an
// address. Suggestions are the tokens traded on this index (from
// /v1/markets, named by /v1/tokens), the busiest first; a pasted address is
// taken as it is.

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const MAX_SHOWN = 8;

interface Suggestion {
  mint: string;
  symbol: string | null;
  name: string | null;
  fills24h: number;
}

function useTradedTokens(): Suggestion[] {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: ["picker-tokens"],
    queryFn: async ({ signal }) => {
      const { markets } = await api.markets(signal);
      const activity = new Map<string, number>();
      for (const m of markets) activity.set(m.tokenMint, (activity.get(m.tokenMint) ?? 0) + m.fills24h + m.openOffers);
      const tokens = new Map<string, Token>((await fetchTokens(queryClient, [...activity.keys()])).map((t) => [t.mint, t]));
      return [...activity.entries()]
        .map(([mint, fills24h]) => ({ mint, fills24h, symbol: tokens.get(mint)?.symbol ?? null, name: tokens.get(mint)?.name ?? null }))
        .sort((a, b) => b.fills24h - a.fills24h);
    },
    staleTime: 60_000,
  });
  return data ?? [];
}

function matches(s: Suggestion, query: string): number {
  const q = query.toLowerCase();
  const symbol = s.symbol?.toLowerCase() ?? "";
  if (symbol === q) return 3;
  if (symbol.startsWith(q)) return 2;
  if ((s.name?.toLowerCase() ?? "").includes(q) || s.mint.toLowerCase().startsWith(q)) return 1;
  return 0;
}

/** An accessible combobox for a token mint; `onChange` gets a mint address, or "" while none is chosen. */
export function TokenPicker({ value, onChange, disabled, label }: { value: string; onChange: (mint: string) => void; disabled?: boolean; label: string }) {
  const tokens = useTradedTokens();
  const id = useId();
  const chosen = tokens.find((t) => t.mint === value);
  const [text, setText] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // The address given shows as its symbol once the suggestions name it.
  if (chosen && text === value && display(chosen) !== text) setText(display(chosen));
  const shown = useMemo(() => {
    const q = text.trim();
    if (q === "" || (chosen && q === display(chosen))) return tokens.slice(0, MAX_SHOWN);
    return tokens
      .map((t) => [t, matches(t, q)] as const)
      .filter(([, score]) => score > 0)
      .sort((a, b) => b[1] - a[1] || b[0].fills24h - a[0].fills24h)
      .slice(0, MAX_SHOWN)
      .map(([t]) => t);
  }, [text, tokens, chosen]);

  function choose(s: Suggestion) {
    setText(display(s));
    setOpen(false);
    onChange(s.mint);
  }

  function type(next: string) {
    setText(next);
    setOpen(true);
    setActive(0);
    const trimmed = next.trim();
    // A pasted address is a choice; an exact symbol of a traded token is too.
    if (BASE58_ADDRESS.test(trimmed)) return onChange(trimmed);
    const exact = tokens.filter((t) => t.symbol?.toLowerCase() === trimmed.toLowerCase());
    onChange(exact.length === 1 ? (exact[0] as Suggestion).mint : "");
  }

  const listId = `${id}-list`;
  const expanded = open && shown.length > 0;
  return (
    <div className="relative">
      <input
        role="combobox"
        aria-label={label}
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded ? `${id}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder="Symbol, name or mint address"
        className="w-full rounded-lg border border-line bg-surface px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-accent"
        value={text}
        disabled={disabled}
        onChange={(e) => type(e.target.value)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, shown.length - 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === "Enter" && expanded) {
            e.preventDefault();
            const s = shown[active];
            if (s) choose(s);
          } else if (e.key === "Escape" && expanded) {
            // Closes the list, not the dialog around it.
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
        data-testid="token-picker"
        data-mint={value}
      />
      {expanded && (
        <ul id={listId} role="listbox" aria-label={`${label} suggestions`} className="absolute left-0 right-0 top-full z-10 mt-1 max-h-64 overflow-y-auto rounded-lg border border-line bg-panel p-1 shadow-xl">
          {shown.map((s, i) => (
            <li
              key={s.mint}
              id={`${id}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`flex cursor-pointer items-baseline justify-between gap-3 rounded-md px-2 py-1.5 text-sm ${i === active ? "bg-raised" : ""}`}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(s);
              }}
              data-testid="token-option"
              data-mint={s.mint}
            >
              <span className="font-medium">{s.symbol ?? shortAddress(s.mint)}</span>
              <span className="truncate text-xs text-muted">
                {s.name ?? ""} <span className="font-mono">{shortAddress(s.mint)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function display(s: Suggestion): string {
  return s.symbol ?? s.mint;
}
