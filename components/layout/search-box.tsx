"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { api, ApiRequestError } from "@/client/api";
import { explorerUrl } from "@/client/explorer";
import { POLL_MS } from "@/client/refresh";
import { resolveSearch, type SearchLookups } from "@/client/search";
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
      return all.filter(byMint).concat(all.filter(payMatch));
    },
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
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
        onChange={(e) => {
          setText(e.target.value);
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
      {message && (
        <p id="site-search-message" role="alert" className="absolute left-0 top-10 z-20 w-full rounded-lg border border-line bg-panel px-3 py-2 text-xs text-ask shadow-lg">
          {message}
        </p>
      )}
    </form>
  );
}
