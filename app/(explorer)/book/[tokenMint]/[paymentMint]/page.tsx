import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BookView } from "@/components/book/book-view";
import { isAddress, serverFeedHead, serverFills, serverOffers, serverTokens } from "@/web/page-loaders";
import { TokenSeed } from "@/components/data/tokens";

export const dynamic = "force-dynamic";

type Params = Promise<{ tokenMint: string; paymentMint: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { tokenMint, paymentMint } = await params;
  if (!isAddress(tokenMint) || !isAddress(paymentMint)) return { title: "Order book" };
  const [token, payment] = await serverTokens([tokenMint, paymentMint]);
  return { title: `${token?.symbol ?? tokenMint.slice(0, 6)} / ${payment?.symbol ?? paymentMint.slice(0, 6)} order book` };
}

export default async function BookPage({ params }: { params: Params }) {
  const { tokenMint, paymentMint } = await params;
  if (!isAddress(tokenMint) || !isAddress(paymentMint)) notFound();
  const book = { tokenMint, paymentMint, status: "open" as const, sort: "price" as const, limit: 200 };
  const feedAfter = await serverFeedHead();
  const [asks, bids, fills, tokens] = await Promise.all([
    serverOffers({ ...book, side: "sell" }),
    serverOffers({ ...book, side: "buy" }),
    serverFills({ tokenMint, paymentMint, limit: 200 }),
    serverTokens([tokenMint, paymentMint]),
  ]);
  return (
    <TokenSeed tokens={tokens}>
      <BookView tokenMint={tokenMint} paymentMint={paymentMint} initial={{ asks, bids, fills }} feedAfter={feedAfter} />
    </TokenSeed>
  );
}
