"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { onWalletConnectRequest } from "@/client/wallet-session";

// The wallet adapter (and web3.js under it) is large; it loads when the user
// asks to connect, or after the page is idle when a wallet was connected
// before (so autoConnect can restore it), never in a page's first bundle.

const WALLET_KEY = "walletName";

const WalletPanel = dynamic(() => import("./wallet-panel"), {
  ssr: false,
  loading: () => <ConnectButton busy onClick={() => {}} />,
});

function ConnectButton({ busy = false, onClick }: { busy?: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={busy}
      className="inline-flex h-9 items-center gap-2 whitespace-nowrap rounded-lg bg-accent px-3 text-sm font-medium text-on-accent hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:opacity-60"
    >
      {busy ? "Loading…" : "Connect wallet"}
    </button>
  );
}

export function WalletButton() {
  const [mode, setMode] = useState<"idle" | "restore" | "loaded">("idle");
  // Each request to open the menu counts one up; the panel opens its menu on every new one, loaded or not.
  const [openRequests, setOpenRequests] = useState(0);
  const requestOpen = () => {
    setMode("loaded");
    setOpenRequests((n) => n + 1);
  };

  // A trading control without a wallet asks for one: load the panel (if it is not yet) and open its menu.
  useEffect(() => onWalletConnectRequest(requestOpen), []);

  useEffect(() => {
    let remembered = false;
    try {
      remembered = localStorage.getItem(WALLET_KEY) !== null;
    } catch {
      // storage unavailable: nothing to restore
    }
    if (!remembered) return;
    const restore = () => setMode((m) => (m === "idle" ? "restore" : m));
    // Safari has no requestIdleCallback.
    const idle = window.requestIdleCallback as typeof window.requestIdleCallback | undefined;
    if (idle) {
      const id = idle(restore, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(restore, 1500);
    return () => window.clearTimeout(id);
  }, []);

  if (mode === "idle") return <ConnectButton onClick={requestOpen} />;
  return <WalletPanel storageKey={WALLET_KEY} openRequests={openRequests} />;
}
