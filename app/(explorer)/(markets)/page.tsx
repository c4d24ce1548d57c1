import { serverFeedHead, serverMarkets, serverStats, serverTokens } from "@/web/page-loaders";
import { TokenSeed } from "@/components/data/tokens";
import { MarketsTable } from "@/components/markets/markets-table";
import { StatsStrip } from "@/components/markets/stats-strip";
import { NewOfferButton } from "@/components/trade/trade-entry";
import { Panel } from "@/components/ui/panel";

export const dynamic = "force-dynamic";

export default async function MarketsPage() {
  const feedAfter = await serverFeedHead();
  const [markets, stats] = await Promise.all([serverMarkets(), serverStats()]);
  const tokens = await serverTokens([
    ...markets.flatMap((m) => [m.tokenMint, m.paymentMint]),
    ...Object.keys(stats.volumeByMint),
    ...Object.keys(stats.feesByMint),
  ]);
  return (
    <TokenSeed tokens={tokens}>
      <h1 className="sr-only">Markets</h1>
      <StatsStrip initial={stats} />
      <Panel title="Markets" className="mt-6" id="markets" actions={
          <span className="flex items-center gap-3">
            <span className="text-xs text-muted">Prices in payment per token · live</span>
            <NewOfferButton />
          </span>
        }
      >
        <MarketsTable initial={markets} feedAfter={feedAfter} />
      </Panel>
    </TokenSeed>
  );
}
