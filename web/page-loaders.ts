import { newestId } from "@/lib/feed/log";
import { address } from "@/web/http/params";
import { listFills, listOfferFills, type FillFilters } from "@/lib/db/reads/fills";
import { listMarkets } from "@/lib/db/reads/markets";
import { getOffer, listOffers, type OfferListParams } from "@/lib/db/reads/offers";
import { makerStats, protocolStats } from "@/lib/db/reads/stats";
import { database, tokenService } from "@/web/services";
import type { FillList, MakerStats, Market, Offer, OfferFillList, OfferList, ProtocolStats, Token, Trending } from "@/client/types";

// The first render's data, read in-process through the same lib/db/reads the
// /v1 routes use, so server HTML and client polls see one shape.

const addressSchema = address("address");
export const isAddress = (value: string) => addressSchema.safeParse(value).success;

/**
 * The live feed's newest id, read before a page's data: the page's stream
 * resumes after it, so what changes between this render and the stream's
 * opening arrives as events, with nothing fetched again. Null (the stream
 * starts from now and the page refetches once) when the log cannot be read.
 */
export async function serverFeedHead(): Promise<string | null> {
  try {
    return (await newestId(database().$client)).toString();
  } catch {
    return null;
  }
}

export async function serverMarkets(): Promise<Market[]> {
  return (JSON.parse(await listMarkets(database())) as { markets: Market[] }).markets;
}

export async function serverStats(): Promise<ProtocolStats> {
  return JSON.parse(await protocolStats(database())) as ProtocolStats;
}

export async function serverOffers(params: Partial<OfferListParams> & Pick<OfferListParams, "status">): Promise<OfferList> {
  return JSON.parse(await listOffers(database(), { limit: 50, offset: 0, ...params })) as OfferList;
}

export async function serverOffer(pda: string): Promise<Offer | null> {
  const text = await getOffer(database(), pda);
  return text === undefined ? null : (JSON.parse(text) as Offer);
}

/** An offer's fills, or null when the offer is unknown to the indexer (the page says so). */
export async function serverOfferFills(pda: string): Promise<OfferFillList | null> {
  const text = await listOfferFills(database(), pda, { limit: 200, offset: 0 });
  return text === undefined ? null : (JSON.parse(text) as OfferFillList);
}

export async function serverFills(filters: FillFilters & { limit?: number; cursor?: string }): Promise<FillList> {
  return JSON.parse(await listFills(database(), { limit: 50, offset: 0, ...filters })) as FillList;
}

export async function serverMakerStats(maker: string): Promise<MakerStats> {
  return JSON.parse(await makerStats(database(), maker)) as MakerStats;
}

/** Trending, or null when the provider fails and nothing cached answers (the page shows an error state). */
export async function serverTrending(): Promise<Trending | null> {
  try {
    return (await tokenService().trending()) as Trending;
  } catch {
    return null;
  }
}

/**
 * Metadata of every mint a page shows, in one provider lookup. A chunk the
 * provider or the chain cannot answer now is left out: the page renders with
 * addresses and the client asks /v1/tokens again, rather than the page failing.
 */
export async function serverTokens(mints: Iterable<string>): Promise<Token[]> {
  const unique = [...new Set(mints)];
  if (unique.length === 0) return [];
  const tokens: Token[] = [];
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = await tokenService().resolve(unique.slice(i, i + 100)).catch(() => []);
    tokens.push(...(chunk as Token[]));
  }
  return tokens;
}
