import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAddress, serverFeedHead, serverOffer, serverOfferFills, serverTokens } from "@/web/page-loaders";
import { TokenSeed } from "@/components/data/tokens";
import { OfferView } from "@/components/offers/offer-view";

export const dynamic = "force-dynamic";

type Params = Promise<{ pda: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { pda } = await params;
  return { title: `Offer ${pda.slice(0, 4)}…${pda.slice(-4)}` };
}

export default async function OfferPage({ params }: { params: Params }) {
  const { pda } = await params;
  if (!isAddress(pda)) notFound();
  const feedAfter = await serverFeedHead();
  const [offer, fills] = await Promise.all([serverOffer(pda), serverOfferFills(pda)]);
  if (!offer || !fills) notFound();
  const tokens = await serverTokens([offer.tokenMint, offer.paymentMint]);
  return (
    <TokenSeed tokens={tokens}>
      <OfferView initial={offer} initialFills={fills} feedAfter={feedAfter} />
    </TokenSeed>
  );
}
