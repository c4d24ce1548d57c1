"use client";

import Link from "next/link";
import { explorerUrl } from "@/client/explorer";
import { shortAddress } from "@/client/format";
import { useAppConfig } from "../data/app-config";
import { CopyButton } from "./copy-button";

/**
 * A base58 address: shortened, linked to its page here when there is one
 * (`href`), with a copy button and a link to the Solana Explorer.
 */
export function Address({ value, href, kind = "address", full = false }: { value: string; href?: string; kind?: "address" | "tx"; full?: boolean }) {
  const config = useAppConfig();
  const text = full ? value : shortAddress(value);
  return (
    <span className="inline-flex min-w-0 max-w-full items-center gap-1 font-mono text-[0.8125rem]">
      {href ? (
        <Link href={href} prefetch={false} className="truncate text-accent hover:underline" title={value}>
          {text}
        </Link>
      ) : (
        <span className="truncate" title={value}>
          {text}
        </span>
      )}
      <CopyButton value={value} label={kind === "tx" ? "Copy signature" : "Copy address"} />
      <a
        href={explorerUrl(config, kind, value)}
        target="_blank"
        rel="noreferrer"
        className="inline-flex h-5 w-5 shrink-0 items-center justify-center rounded text-muted hover:bg-raised hover:text-fg"
        aria-label={`Open ${value} in the Solana Explorer`}
        title="Solana Explorer"
      >
        <svg viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden>
          <path d="M9 3h4v4M13 3L7.5 8.5M11 9.5V13H3V5h3.5" />
        </svg>
      </a>
    </span>
  );
}
