"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { shortAddress } from "@/client/format";
import { fillPrice, offerPrice, rawPrice } from "@/client/price";
import type { ScaledPrice, Token } from "@/client/types";
import { Amount, Price } from "./amount";
import { useToken } from "../data/tokens";

export const PLACEHOLDER_IMAGE = "/token-placeholder.svg";

/**
 * A token's image that falls back to the placeholder when it fails to load
 * (a host that is down, blocked or offline), once: the placeholder failing in
 * turn is left as it is, so there is no loop.
 */
export function TokenImage({ src, size = 20, className = "" }: { src: string | null | undefined; size?: number; className?: string }) {
  const [failed, setFailed] = useState<string>();
  const ref = useRef<HTMLImageElement>(null);
  const wanted = src || PLACEHOLDER_IMAGE;
  const shown = wanted === failed ? PLACEHOLDER_IMAGE : wanted;
  const onError = () => {
    if (shown !== PLACEHOLDER_IMAGE) setFailed(shown);
  };
  // A server-rendered image can fail before hydration attaches onError; look once it has.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && shown !== PLACEHOLDER_IMAGE) setFailed(shown);
  }, [shown]);
  // Remote token icons come from many hosts; next/image would need each one allowed.
  return (
    // eslint-disable-next-line @next/next/no-img-element
    <img
      ref={ref}
      src={shown}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={onError}
      className={`shrink-0 rounded-full bg-raised object-cover ${className}`}
      style={{ width: size, height: size }}
    />
  );
}

export function TokenIcon({ token, size = 20 }: { token: Token | undefined; size?: number }) {
  return <TokenImage src={token?.imageUrl} size={size} />;
}

/** Icon, symbol and (optionally) name of a mint; unknown mints show their shortened address. */
export function TokenLabel({ mint, showName = false, href, size = 20 }: { mint: string; showName?: boolean; href?: string; size?: number }) {
  const token = useToken(mint);
  const symbol = token?.symbol ?? shortAddress(mint);
  const body = (
    <span className="inline-flex min-w-0 items-center gap-2" title={`${token?.name ?? "Unknown token"}\n${mint}`}>
      <TokenIcon token={token} size={size} />
      <span className="min-w-0">
        <span className={`block truncate font-medium ${token?.symbol ? "" : "font-mono text-xs"}`}>{symbol}</span>
        {showName && <span className="block truncate text-xs text-muted">{token?.name ?? "Unknown token"}</span>}
      </span>
    </span>
  );
  return href ? (
    <Link href={href} prefetch={false} className="min-w-0 hover:underline">
      {body}
    </Link>
  ) : (
    body
  );
}

/** A raw amount of `mint` in whole tokens, with its symbol. */
export function TokenSymbol({ mint }: { mint: string }) {
  const token = useToken(mint);
  return <>{token?.symbol ?? shortAddress(mint)}</>;
}

/** A raw amount of `mint` in whole tokens (its decimals from /v1/tokens). */
export function TokenAmount({ raw, mint, showSymbol = false, className }: { raw: string; mint: string; showSymbol?: boolean; className?: string }) {
  const token = useToken(mint);
  return <Amount raw={raw} decimals={token?.decimals} symbol={showSymbol ? (token?.symbol ?? undefined) : undefined} className={className} />;
}

/** An offer's price in payment per whole token. */
export function OfferPrice({ price, tokenMint, paymentMint, className }: { price: ScaledPrice; tokenMint: string; paymentMint: string; className?: string }) {
  const token = useToken(tokenMint);
  const payment = useToken(paymentMint);
  return <Price value={offerPrice(price, token?.decimals, payment?.decimals)} raw={rawPrice(price)} className={className} />;
}

/** A fill's effective price (payment over size) in payment per whole token. */
export function FillPrice({ fillAmount, paymentAmount, tokenMint, paymentMint }: { fillAmount: string; paymentAmount: string; tokenMint: string; paymentMint: string }) {
  const token = useToken(tokenMint);
  const payment = useToken(paymentMint);
  const raw = fillPrice(fillAmount, paymentAmount, 0, 0) ?? "0";
  return <Price value={fillPrice(fillAmount, paymentAmount, token?.decimals, payment?.decimals)} raw={raw} />;
}
