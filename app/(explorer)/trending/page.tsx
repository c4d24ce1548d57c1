import type { Metadata } from "next";
import { serverMarkets, serverTrending } from "@/web/page-loaders";
import { Panel, PageTitle } from "@/components/ui/panel";
import { TrendingView } from "@/components/trending/trending-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Trending" };

export default async function TrendingPage() {
  const [trending, markets] = await Promise.all([serverTrending(), serverMarkets()]);
  // Markets come busiest first, so the first pair of a token is its best book.
  const books: Record<string, string> = {};
  for (const m of markets) if (m.openOffers > 0) books[m.tokenMint] ??= `/book/${m.tokenMint}/${m.paymentMint}`;
  return (
    <>
      <PageTitle sub="The token provider's top organic tokens. Click a column to sort; Book opens the order book where a token has offers.">Trending</PageTitle>
      <Panel>
        <TrendingView initial={trending} books={books} />
      </Panel>
    </>
  );
}
