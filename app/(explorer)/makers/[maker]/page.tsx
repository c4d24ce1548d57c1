import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAddress, serverFeedHead, serverFills, serverMakerStats, serverOffers, serverTokens } from "@/web/page-loaders";
import { TokenSeed } from "@/components/data/tokens";
import { MakerView } from "@/components/makers/maker-view";
import { OFFER_STATUSES, type OfferStatus } from "@/client/types";

export const dynamic = "force-dynamic";

type Params = Promise<{ maker: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { maker } = await params;
  return { title: `Maker ${maker.slice(0, 4)}…${maker.slice(-4)}` };
}

export default async function MakerPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { maker } = await params;
  if (!isAddress(maker)) notFound();
  const search = await searchParams;
  const status = (OFFER_STATUSES as readonly string[]).includes(String(search.status)) ? (search.status as OfferStatus) : "open";
  const cursor = typeof search.cursor === "string" && /^[A-Za-z0-9_-]{1,200}$/.test(search.cursor) ? search.cursor : undefined;
  const feedAfter = await serverFeedHead();
  const [stats, offers, fills] = await Promise.all([
    serverMakerStats(maker),
    serverOffers({ maker, status, cursor, limit: 50 }),
    serverFills({ maker, limit: 50 }),
  ]);
  const tokens = await serverTokens([
    ...Object.keys(stats.totalSold),
    ...Object.keys(stats.totalBought),
    ...offers.offers.flatMap((o) => [o.tokenMint, o.paymentMint]),
    ...fills.fills.flatMap((f) => [f.tokenMint, f.paymentMint]),
  ]);
  return (
    <TokenSeed tokens={tokens}>
      <MakerView maker={maker} status={status} cursor={cursor} initial={{ stats, offers, fills }} feedAfter={feedAfter} />
    </TokenSeed>
  );
}
