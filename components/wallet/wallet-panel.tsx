"use client";

import { WalletReadyState, type WalletError, type WalletName } from "@solana/wallet-adapter-base";
import { useWallet, WalletProvider } from "@solana/wallet-adapter-react";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { demoWalletOffered } from "@/client/cluster";
import type { DemoCluster } from "@/client/demo-wallet";
import { DEMO_WALLET_NAME, hasDemoKey } from "@/client/demo-wallet/stored-key";
import { shortAddress } from "@/client/format";
import { publishWalletSession } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { CreateDemoWallet, restoreStoredDemoWallet } from "./demo-wallet-item";
import { AlertsToggle, OfferNotices } from "./offer-notices";
import { WalletBalances } from "./wallet-balance";

/**
 * The wallet session. No per-wallet adapters: Wallet Standard wallets
 * (Phantom, Solflare, Backpack, …) register themselves and are listed here.
 */
export default function WalletPanel({ storageKey, openRequests }: { storageKey: string; openRequests: number }) {
  const [error, setError] = useState<string | null>(null);
  const config = useAppConfig();
  // The demo wallet: the local demo cluster only, known by its genesis hash.
  const demo = useMemo<DemoCluster | null>(
    () => (config.rpcUrl && config.genesisHash && demoWalletOffered({ kind: config.cluster, genesisHash: config.genesisHash }) ? { rpcUrl: config.rpcUrl, genesisHash: config.genesisHash } : null),
    [config.rpcUrl, config.genesisHash, config.cluster],
  );
  useEffect(() => {
    if (demo && hasDemoKey(demo.genesisHash)) void restoreStoredDemoWallet(demo);
  }, [demo]);
  return (
    <WalletProvider wallets={[]} autoConnect localStorageKey={storageKey} onError={(e: WalletError) => setError(e.message || e.name)}>
      <WalletMenu openRequests={openRequests} demo={demo} rpcUrl={config.rpcUrl} error={error} setError={setError} />
    </WalletProvider>
  );
}

interface WalletMenuProps {
  /** Counts "open the menu" requests (the Connect button, trading controls); each new one opens it. */
  openRequests: number;
  demo: DemoCluster | null;
  rpcUrl: string | null;
  error: string | null;
  setError: (error: string | null) => void;
}

function WalletMenu({ openRequests, demo, rpcUrl, error, setError }: WalletMenuProps) {
  const { wallets, wallet, select, publicKey, connected, connecting, disconnect, sendTransaction } = useWallet();
  const [open, setOpen] = useState(openRequests > 0);
  const root = useRef<HTMLDivElement>(null);
  const address = publicKey?.toBase58();
  const demoStored = wallets.some((w) => w.adapter.name === DEMO_WALLET_NAME);

  // A new request to open (state adjusted while rendering, as React advises over an effect).
  const [seenRequests, setSeenRequests] = useState(openRequests);
  if (openRequests !== seenRequests) {
    setSeenRequests(openRequests);
    setOpen(true);
  }

  useEffect(() => {
    if (connected && address && wallet) {
      publishWalletSession({ status: "connected", wallet: { address, walletName: wallet.adapter.name, sendTransaction } });
    } else {
      publishWalletSession({ status: connecting ? "connecting" : "disconnected" });
    }
  }, [connected, connecting, address, wallet, sendTransaction]);
  useEffect(() => () => publishWalletSession({ status: "unloaded" }), []);

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

  const clearError = () => setError(null);
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
          connected ? "border border-line hover:bg-raised" : "bg-accent text-on-accent hover:opacity-90"
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
              {rpcUrl && <WalletBalances address={address} />}
              <Link role="menuitem" href="/portfolio" onClick={() => setOpen(false)} className="block rounded-lg px-3 py-2 text-sm hover:bg-raised" data-testid="portfolio-link">
                Portfolio
              </Link>
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
          ) : detected.length === 0 && !demo ? (
            <p className="px-3 py-2 text-sm text-muted">
              No Solana wallet found in this browser. Install one that supports the Wallet Standard (Phantom, Solflare, Backpack) and reload.
            </p>
          ) : (
            <>
              {demo && !demoStored && (
                <CreateDemoWallet
                  cluster={demo}
                  separated={detected.length > 0}
                  onCreated={(problems) => {
                    setError(problems.length > 0 ? `Some demo tokens were not funded: ${problems.join("; ")}` : null);
                    setOpen(false);
                    select(DEMO_WALLET_NAME as WalletName);
                  }}
                />
              )}
              {detected.length > 0 && <p className="px-3 pb-1 pt-1 text-xs font-medium uppercase tracking-wide text-muted">Choose a wallet</p>}
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
