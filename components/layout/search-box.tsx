"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent, type KeyboardEvent } from "react";
import { api, ApiRequestError } from "@/client/api";
import { explorerUrl } from "@/client/explorer";
import { POLL_MS } from "@/client/refresh";
import { resolveSearch, type SearchLookups } from "@/client/search";
import { compareBusiest, suggest, type SuggestToken } from "@/client/search-suggestions";
import type { Market } from "@/client/types";
import { useAppConfig } from "../data/app-config";

/** A mint, a symbol, a wallet or an offer address: looked up against the index, then opened. */
export function SearchBox({ className = "" }: { className?: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const config = useAppConfig();
  const [text, setText] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(-1);

  // The suggestions' data is fetched once the box is first used, never in a page's first load.
  const [used, setUsed] = useState(false);
  const marketList = useQuery({ queryKey: ["markets"], queryFn: ({ signal }) => api.markets(signal), staleTime: POLL_MS.markets, enabled: used });
  const mints = useMemo(() => [...new Set((marketList.data?.markets ?? []).flatMap((m) => [m.tokenMint, m.paymentMint]))].sort().slice(0, 100), [marketList.data]);
  const tokenList = useQuery({ queryKey: ["search-tokens", mints], queryFn: ({ signal }) => api.tokens(mints, signal), staleTime: POLL_MS.markets, enabled: used && mints.length > 0 });
  const tokenMap = useMemo(() => new Map<string, SuggestToken>((tokenList.data?.tokens ?? []).map((t) => [t.mint, t])), [tokenList.data]);
  const suggestions = useMemo(() => suggest(text, marketList.data?.markets ?? [], tokenMap), [text, marketList.data, tokenMap]);
  const open = focused && text.trim() !== "" && suggestions.length > 0;

  const markets = () => queryClient.fetchQuery({ queryKey: ["markets"], queryFn: ({ signal }) => api.markets(signal), staleTime: POLL_MS.markets });

  const lookups: SearchLookups = {
    async isOffer(address) {
      try {
        await api.offer(address);
        return true;
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 404) return false;
        throw error;
      }
    },
    async isMaker(address) {
      return (await api.makerStats(address)).totalOffers > 0;
    },
    async isTaker(address) {
      return (await api.fills({ taker: address, limit: 1 })).fills.length > 0;
    },
    async marketsOfMint(address) {
      const { markets: all } = await markets();
      return all.filter((m) => m.tokenMint === address).concat(all.filter((m) => m.paymentMint === address));
    },
    async marketsOfSymbol(query) {
      const { markets: all } = await markets();
      const mints = [...new Set(all.flatMap((m) => [m.tokenMint, m.paymentMint]))];
      if (mints.length === 0) return [];
      const { tokens } = await api.tokens(mints.slice(0, 100));
      const q = query.toLowerCase();
      const exact = tokens.filter((t) => t.symbol?.toLowerCase() === q);
      const loose = exact.length ? exact : tokens.filter((t) => t.symbol?.toLowerCase().startsWith(q) || t.name?.toLowerCase().includes(q));
      const byMint = (m: Market) => loose.some((t) => t.mint === m.tokenMint);
      const payMatch = (m: Market) => loose.some((t) => t.mint === m.paymentMint);
      // Busiest first, as the suggestions rank them: "orca" opens the ORCA market most traded.
      const decimalsOf = (mint: string) => tokens.find((t) => t.mint === mint)?.decimals ?? null;
      const busiest = (list: Market[]) => [...list].sort((a, b) => compareBusiest(a, b, decimalsOf));
      return busiest(all.filter(byMint)).concat(busiest(all.filter(payMatch)));
    },
  };

  function go(href: string) {
    router.push(href);
    setText("");
    setActive(-1);
    setFocused(false);
  }

  function onKey(event: KeyboardEvent<HTMLInputElement>) {
    if (!open) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      // -1 is the typed text itself; the arrows cycle through it and the options.
      setActive((i) => {
        const next = i + step;
        return next >= suggestions.length ? -1 : next < -1 ? suggestions.length - 1 : next;
      });
    } else if (event.key === "Escape") {
      setFocused(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = open && active >= 0 ? suggestions[active] : undefined;
    if (chosen) return go(chosen.href);
    setBusy(true);
    setMessage(null);
    try {
      const target = await resolveSearch(text, lookups);
      if ("href" in target) {
        router.push(target.href);
        setText("");
      } else if ("transaction" in target) window.open(explorerUrl(config, "tx", target.transaction), "_blank", "noopener");
      else setMessage(target.error);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : "Search failed");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form role="search" onSubmit={submit} className={`relative ${className}`}>
      <label htmlFor="site-search" className="sr-only">
        Search by mint, symbol, wallet or offer address
      </label>
      <input
        id="site-search"
        name="q"
        value={text}
        role="combobox"
        aria-expanded={open}
        aria-controls="site-search-list"
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `site-search-${suggestions[active]?.id}` : undefined}
        onFocus={() => {
          setFocused(true);
          setUsed(true);
        }}
        onBlur={() => setFocused(false)}
        onKeyDown={onKey}
        onChange={(e) => {
          setText(e.target.value);
          setActive(-1);
          setFocused(true);
          setMessage(null);
        }}
        placeholder="Search mint, symbol, wallet or offer"
        autoComplete="off"
        spellCheck={false}
        className="h-9 w-full rounded-lg border border-line bg-panel pl-9 pr-3 text-sm outline-none placeholder:text-muted focus:border-accent focus:ring-2 focus:ring-accent/30"
        aria-describedby={message ? "site-search-message" : undefined}
        aria-busy={busy}
      />
      <svg viewBox="0 0 20 20" className="pointer-events-none absolute left-3 top-2.5 h-4 w-4 text-muted" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
        <circle cx="9" cy="9" r="6" />
        <path d="M14 14l4 4" />
      </svg>
      <ul
        id="site-search-list"
        role="listbox"
        aria-label="Suggestions"
        hidden={!open}
        className="absolute left-0 top-10 z-30 max-h-80 w-full overflow-auto rounded-lg border border-line bg-panel py-1 text-sm shadow-lg"
        data-testid="search-suggestions"
      >
        {open &&
          suggestions.map((s, i) => (
            <li
              key={s.id}
              id={`site-search-${s.id}`}
              role="option"
              aria-selected={i === active}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                go(s.href);
              }}
              onMouseEnter={() => setActive(i)}
              className={`flex cursor-pointer items-baseline justify-between gap-2 px-3 py-1.5 ${i === active ? "bg-raised" : ""}`}
              data-suggestion={s.kind}
            >
              <span className="truncate font-medium">{s.label}</span>
              <span className="shrink-0 text-xs text-muted">{s.detail}</span>
            </li>
          ))}
      </ul>
      {message && (
        <p id="site-search-message" role="alert" className="absolute left-0 top-10 z-20 w-full rounded-lg border border-line bg-panel px-3 py-2 text-xs text-ask shadow-lg">
          {message}
        </p>
      )}
    </form>
  );
}
