import Link from "next/link";
import { TokenLabel, TokenSymbol } from "./token";

/** A market's pair, linked to its book: the token (with its icon) over the payment mint's symbol. */
export function PairLink({ tokenMint, paymentMint, className = "" }: { tokenMint: string; paymentMint: string; className?: string }) {
  return (
    <Link href={`/book/${tokenMint}/${paymentMint}`} prefetch={false} className={`inline-flex min-w-0 items-center gap-1 hover:underline ${className}`}>
      <TokenLabel mint={tokenMint} size={16} />
      <span className="text-muted">
        / <TokenSymbol mint={paymentMint} />
      </span>
    </Link>
  );
}
