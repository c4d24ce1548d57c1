"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { createTokenBatcher } from "@/client/api";
import { TOKEN_STALE_MS } from "@/client/refresh";
import type { Token } from "@/client/types";

// Token metadata: what the server resolved for the first render seeds each
// mint's query; mints that appear later (live rows) are fetched in batches.

const SeedContext = createContext<ReadonlyMap<string, Token>>(new Map());

export function TokenSeed({ tokens, children }: { tokens: readonly Token[]; children: ReactNode }) {
  const parent = useContext(SeedContext);
  const value = useMemo(() => new Map([...parent, ...tokens.map((t) => [t.mint, t] as const)]), [parent, tokens]);
  return <SeedContext.Provider value={value}>{children}</SeedContext.Provider>;
}

let loader: ReturnType<typeof createTokenBatcher> | undefined;

export function useToken(mint: string): Token | undefined {
  const seed = useContext(SeedContext);
  const { data } = useQuery({
    queryKey: ["token", mint],
    queryFn: () => (loader ??= createTokenBatcher())(mint),
    initialData: seed.get(mint),
    staleTime: TOKEN_STALE_MS,
  });
  return data;
}

/** A token's short label: its symbol, or the shortened mint when the provider does not know it. */
export function tokenLabel(token: Token | undefined, mint: string): string {
  return token?.symbol ?? `${mint.slice(0, 4)}…${mint.slice(-4)}`;
}

/** Tokens for an action (an export): from the cache the visible cells filled, else fetched. */
export function fetchTokens(queryClient: QueryClient, mints: string[]): Promise<Token[]> {
  return Promise.all(
    mints.map((mint) => queryClient.fetchQuery({ queryKey: ["token", mint], queryFn: () => (loader ??= createTokenBatcher())(mint), staleTime: TOKEN_STALE_MS })),
  );
}
