import { classifySearch } from "./search";

// What the header's search suggests as one types: pairs whose token (or
// payment) symbol or name matches, busiest first, and for a full address the
// wallet's pages. Pure, so the ranking is tested without a browser.

export interface SuggestMarket {
  tokenMint: string;
  paymentMint: string;
  fills24h: number;
  volume24h: string;
}

export interface SuggestToken {
  mint: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

export interface Suggestion {
  id: string;
  kind: "pair" | "wallet" | "offer";
  label: string;
  detail: string;
  href: string;
}

/**
 * Busiest first: most fills in 24 hours (volumes in different payment mints do
 * not compare), then the larger volume in whole payment tokens.
 */
export function compareBusiest(a: SuggestMarket, b: SuggestMarket, decimalsOf: (mint: string) => number | null): number {
  if (a.fills24h !== b.fills24h) return b.fills24h - a.fills24h;
  const whole = (m: SuggestMarket) => Number(m.volume24h) / 10 ** (decimalsOf(m.paymentMint) ?? 0);
  return whole(b) - whole(a);
}

/** How well a token matches the text: 0 exact symbol, 1 symbol prefix, 2 name contains; null none. */
function tokenRank(token: SuggestToken | undefined, q: string): number | null {
  if (!token) return null;
  const symbol = token.symbol?.toLowerCase() ?? "";
  if (symbol === q) return 0;
  if (symbol.startsWith(q)) return 1;
  if (token.name?.toLowerCase().includes(q)) return 2;
  return null;
}

export function suggest(text: string, markets: readonly SuggestMarket[], tokens: ReadonlyMap<string, SuggestToken>, limit = 8): Suggestion[] {
  const input = classifySearch(text);
  if (input.kind === "address") {
    const a = input.address;
    const short = `${a.slice(0, 4)}…${a.slice(-4)}`;
    // A mint: its pairs, busiest first, before the wallet readings.
    const pairs = markets.filter((m) => m.tokenMint === a || m.paymentMint === a);
    if (pairs.length > 0) return pairSuggestions([...pairs].sort((x, y) => compareBusiest(x, y, (m) => tokens.get(m)?.decimals ?? null)).slice(0, limit), tokens);
    return [
      { id: `maker-${a}`, kind: "wallet", label: `Wallet ${short}`, detail: "offers made (maker page)", href: `/makers/${a}` },
      { id: `taker-${a}`, kind: "wallet", label: `Wallet ${short}`, detail: "fills taken", href: `/fills?taker=${a}` },
      { id: `offer-${a}`, kind: "offer", label: `Offer ${short}`, detail: "if it is an offer's address", href: `/offers/${a}` },
    ];
  }
  if (input.kind !== "text") return [];
  const q = input.text.toLowerCase();
  // "orca/usdc", "orca / us": a pair typed as token / payment, each side a symbol prefix.
  const [tokenPart, paymentPart] = q.includes("/") ? q.split("/").map((p) => p.trim()) : [null, null];
  const decimalsOf = (mint: string) => tokens.get(mint)?.decimals ?? null;
  const ranked: { market: SuggestMarket; rank: number }[] = [];
  for (const market of markets) {
    let rank: number | null;
    if (tokenPart !== null) {
      const t = tokens.get(market.tokenMint)?.symbol?.toLowerCase() ?? "";
      const p = tokens.get(market.paymentMint)?.symbol?.toLowerCase() ?? "";
      rank = tokenPart !== "" && t.startsWith(tokenPart) && p.startsWith(paymentPart ?? "") ? (t === tokenPart ? 0 : 1) : null;
    } else {
      // The token side counts first; a payment-side match ("usdc") ranks after every token match.
      const token = tokenRank(tokens.get(market.tokenMint), q);
      const payment = tokenRank(tokens.get(market.paymentMint), q);
      rank = token ?? (payment !== null ? 3 + payment : null);
    }
    if (rank !== null) ranked.push({ market, rank });
  }
  ranked.sort((x, y) => x.rank - y.rank || compareBusiest(x.market, y.market, decimalsOf));
  return pairSuggestions(
    ranked.slice(0, limit).map((r) => r.market),
    tokens,
  );
}

function pairSuggestions(markets: readonly SuggestMarket[], tokens: ReadonlyMap<string, SuggestToken>): Suggestion[] {
  const symbolOf = (mint: string) => tokens.get(mint)?.symbol ?? `${mint.slice(0, 4)}…`;
  return markets.map((market) => {
    const token = tokens.get(market.tokenMint);
    return {
      id: `pair-${market.tokenMint}-${market.paymentMint}`,
      kind: "pair",
      label: `${symbolOf(market.tokenMint)} / ${symbolOf(market.paymentMint)}`,
      detail: `${token?.name ?? "Unknown token"} · ${market.fills24h} fills in 24h`,
      href: `/book/${market.tokenMint}/${market.paymentMint}`,
    };
  });
}
