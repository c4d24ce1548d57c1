"use client";

import { WalletReadyState, type WalletError, type WalletName } from "@solana/wallet-adapter-base";
import { useWallet, WalletProvider } from "@solana/wallet-adapter-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { shortAddress } from "@/lib/ui/format";
import { AlertsToggle, OfferNotices } from "./offer-notices";

/**
 * The wallet session. No per-wallet adapters: Wallet Standard wallets
 * (Phantom, Solflare, Backpack, …) register themselves and are listed here.
 */
export default function WalletPanel({ storageKey, initiallyOpen }: { storageKey: string; initiallyOpen: boolean }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <WalletProvider wallets={[]} autoConnect localStorageKey={storageKey} onError={(e: WalletError) => setError(e.message || e.name)}>
      <WalletMenu initiallyOpen={initiallyOpen} error={error} clearError={() => setError(null)} />
    </WalletProvider>
  );
}

function WalletMenu({ initiallyOpen, error, clearError }: { initiallyOpen: boolean; error: string | null; clearError: () => void }) {
  const { wallets, wallet, select, publicKey, connected, connecting, disconnect } = useWallet();
  const [open, setOpen] = useState(initiallyOpen);
  const root = useRef<HTMLDivElement>(null);
  const address = publicKey?.toBase58();

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const detected = wallets.filter((w) => w.readyState === WalletReadyState.Installed || w.readyState === WalletReadyState.Loadable);

  return (
    <div ref={root} className="relative flex items-center gap-2">
      {connected && address && (
        <>
          <OfferNotices maker={address} />
          <AlertsToggle />
        </>
      )}
      {connected && address && (
        <Link
          href={`/makers/${address}`}
          className="hidden h-9 items-center whitespace-nowrap rounded-lg border border-line px-3 text-sm font-medium hover:bg-raised sm:inline-flex"
          data-testid="my-offers"
        >
          My offers
        </Link>
      )}
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-haspopup="menu"
        className={`inline-flex h-9 items-center gap-2 whitespace-nowrap rounded-lg px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${
          connected ? "border border-line hover:bg-raised" : "bg-accent text-white hover:opacity-90"
        }`}
      >
        {connected && address ? (
          <>
            {wallet && (
              // eslint-disable-next-line @next/next/no-img-element
              <img src={wallet.adapter.icon} alt="" className="h-4 w-4" />
            )}
            <span className="font-mono">{shortAddress(address)}</span>
          </>
        ) : connecting ? (
          "Connecting…"
        ) : (
          "Connect wallet"
        )}
      </button>
      {open && (
        <div role="menu" className="absolute right-0 top-11 z-30 w-64 rounded-xl border border-line bg-panel p-2 shadow-xl">
          {connected && address ? (
            <>
              <Link role="menuitem" href={`/makers/${address}`} onClick={() => setOpen(false)} className="block rounded-lg px-3 py-2 text-sm hover:bg-raised">
                My offers
              </Link>
              <button
                role="menuitem"
                type="button"
                onClick={() => void navigator.clipboard?.writeText(address)}
                className="block w-full rounded-lg px-3 py-2 text-left text-sm hover:bg-raised"
              >
                Copy address
              </button>
              <button
                role="menuitem"
                type="button"
                onClick={() => {
                  setOpen(false);
                  void disconnect();
                }}
                className="block w-full rounded-lg px-3 py-2 text-left text-sm text-ask hover:bg-raised"
              >
                Disconnect
              </button>
            </>
          ) : detected.length === 0 ? (
            <p className="px-3 py-2 text-sm text-muted">
              No Solana wallet found in this browser. Install one that supports the Wallet Standard (Phantom, Solflare, Backpack) and reload.
            </p>
          ) : (
            <>
              <p className="px-3 pb-1 pt-1 text-xs font-medium uppercase tracking-wide text-muted">Choose a wallet</p>
              {detected.map((w) => (
                <button
                  key={w.adapter.name}
                  role="menuitem"
                  type="button"
                  onClick={() => {
                    clearError();
                    setOpen(false);
                    // autoConnect connects once the selection is made.
                    select(w.adapter.name as WalletName);
                  }}
                  className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm hover:bg-raised"
                >
                  {/* eslint-disable-next-line @next/next/no-img-element */}
                  <img src={w.adapter.icon} alt="" className="h-5 w-5" />
                  {w.adapter.name}
                </button>
              ))}
            </>
          )}
          {error && (
            <p role="alert" className="px-3 py-2 text-xs text-ask">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
