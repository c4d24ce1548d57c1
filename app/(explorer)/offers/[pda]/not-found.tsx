import Link from "next/link";

export default function OfferNotFound() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center" data-testid="offer-not-found">
      <p className="text-sm font-semibold uppercase tracking-wide text-muted">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Offer not found</h1>
      <p className="mt-3 text-sm text-muted">
        The indexer has never seen an offer at this address. It may be a wallet or a mint instead, or the offer was created moments ago and is not indexed yet.
      </p>
      <div className="mt-6 flex justify-center gap-3">
        <Link href="/" className="rounded-lg bg-accent px-4 py-2 text-sm font-medium text-on-accent">
          Browse markets
        </Link>
        <Link href="/fills" className="rounded-lg border border-line px-4 py-2 text-sm">
          Latest fills
        </Link>
      </div>
    </div>
  );
}
