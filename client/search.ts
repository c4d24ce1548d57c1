import bs58 from "bs58";

// The search box: what the text is, then where it leads. An address can be an
// offer, a mint or a wallet; only the index can tell, so the lookups are
// passed in.

export type SearchInput =
  | { kind: "empty" }
  | { kind: "address"; address: string }
  | { kind: "signature"; signature: string }
  | { kind: "text"; text: string };

export function classifySearch(raw: string): SearchInput {
  const text = raw.trim();
  if (text === "") return { kind: "empty" };
  if (/^[1-9A-HJ-NP-Za-km-z]{32,90}$/.test(text)) {
    try {
      const length = bs58.decode(text).length;
      if (length === 32) return { kind: "address", address: text };
      if (length === 64) return { kind: "signature", signature: text };
    } catch {
      // not base58 after all: a symbol-like word
    }
  }
  return { kind: "text", text };
}

export interface SearchLookups {
  /** True when the indexer knows an offer at this address. */
  isOffer(address: string): Promise<boolean>;
  /** True when the address made offers. */
  isMaker(address: string): Promise<boolean>;
  /** True when the address took offers. */
  isTaker(address: string): Promise<boolean>;
  /** Pairs (token, payment) the address is the token or payment mint of, busiest first. */
  marketsOfMint(address: string): Promise<{ tokenMint: string; paymentMint: string }[]>;
  /** Pairs whose token symbol (or name) matches the text, busiest first. */
  marketsOfSymbol(text: string): Promise<{ tokenMint: string; paymentMint: string }[]>;
}

export type SearchTarget = { href: string } | { transaction: string } | { error: string };

export async function resolveSearch(raw: string, lookups: SearchLookups): Promise<SearchTarget> {
  const input = classifySearch(raw);
  switch (input.kind) {
    case "empty":
      return { error: "Type a mint, a symbol, a wallet or an offer address." };
    case "signature":
      // The index has no page per transaction; the Solana Explorer has.
      return { transaction: input.signature };
    case "address": {
      // Cheapest and most common first; the offer lookup answers 404 for anything else.
      const [market] = await lookups.marketsOfMint(input.address);
      if (market) return { href: `/book/${market.tokenMint}/${market.paymentMint}` };
      if (await lookups.isMaker(input.address)) return { href: `/makers/${input.address}` };
      if (await lookups.isOffer(input.address)) return { href: `/offers/${input.address}` };
      if (await lookups.isTaker(input.address)) return { href: `/fills?taker=${input.address}` };
      return { href: `/makers/${input.address}` };
    }
    case "text": {
      const [market] = await lookups.marketsOfSymbol(input.text);
      if (market) return { href: `/book/${market.tokenMint}/${market.paymentMint}` };
      return { error: `No market matches “${input.text}”.` };
    }
  }
}
