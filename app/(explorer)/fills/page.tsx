import type { Metadata } from "next";
import { serverFeedHead, serverFills, serverMarkets, serverTokens } from "@/web/page-loaders";
import { TokenSeed } from "@/components/data/tokens";
import { FillsView } from "@/components/fills/fills-view";
import { PageTitle } from "@/components/ui/panel";
import { parseFillFilters } from "@/client/fill-filters";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Fills" };

export default async function FillsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const filters = parseFillFilters(await searchParams);
  const feedAfter = await serverFeedHead();
  const [fills, markets] = await Promise.all([serverFills({ ...filters.query, limit: 50 }).catch(() => null), serverMarkets()]);
  const tokens = await serverTokens([...(fills?.fills ?? []).flatMap((f) => [f.tokenMint, f.paymentMint]), ...markets.map((m) => m.tokenMint)]);
  const bySymbol = new Map(tokens.map((t) => [t.mint, t.symbol]));
  const tokenOptions = [...new Set(markets.map((m) => m.tokenMint))].map((mint) => ({ mint, label: bySymbol.get(mint) ?? "Unknown token" }));
  return (
    <TokenSeed tokens={tokens}>
      <PageTitle sub="Every take of every offer, newest first. Filters live in the URL: share it to share the view.">Fills</PageTitle>
      <FillsView key={JSON.stringify(filters.values)} filters={filters} initial={fills} tokenOptions={tokenOptions} feedAfter={feedAfter} />
    </TokenSeed>
  );
}
