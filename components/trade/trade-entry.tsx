"use client";

import dynamic from "next/dynamic";
import { type ReactNode, useEffect, useState } from "react";
import type { Offer } from "@/client/types";
import { type ConnectedWallet, requestWalletConnect } from "@/client/wallet-session";
import { ModalDialog } from "../ui/modal-dialog";
import { useWalletSession } from "../wallet/use-wallet-session";

// The only trading code in a page's first load: buttons that ask for a wallet
// and open the forms. Forms, web3.js and the program's builders load (as their
// own chunks) when a connected wallet acts.

const loading = () => <p className="text-sm text-muted" data-testid="trade-loading">Loading…</p>;
const TakeForm = dynamic(() => import("./take-form").then((m) => m.TakeForm), { ssr: false, loading });
const CreateForm = dynamic(() => import("./create-form").then((m) => m.CreateForm), { ssr: false, loading });
const OfferActionButtons = dynamic(() => import("./offer-action-buttons").then((m) => m.OfferActionButtons), { ssr: false });
const MakerBulkActions = dynamic(() => import("./maker-bulk-actions").then((m) => m.MakerBulkActions), { ssr: false });

function useConnectedWallet(): ConnectedWallet | null {
  const session = useWalletSession();
  return session.status === "connected" ? session.wallet : null;
}

/**
 * Opens something that needs a wallet: at once when one is connected, else
 * after asking the header to connect one (it opens once the wallet connects).
 */
function useWalletGate(): { wallet: ConnectedWallet | null; open: boolean; request: () => void; close: () => void } {
  const wallet = useConnectedWallet();
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (!wallet && wanted) requestWalletConnect();
  }, [wallet, wanted]);
  return { wallet, open: wanted && wallet !== null, request: () => setWanted(true), close: () => setWanted(false) };
}

export function TradeDialog({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: ReactNode }) {
  return (
    <ModalDialog title={title} onClose={onClose} testId="trade-dialog">
      {children}
    </ModalDialog>
  );
}

const smallButton = "rounded-md border border-line px-2 py-0.5 text-xs font-medium hover:bg-raised";

/** "Take" on a book line or an offer page; `label` lets a page word it from the taker's side (Buy / Sell). */
export function TakeButton({ offer, className = smallButton, label = "Take" }: { offer: Offer; className?: string; label?: ReactNode }) {
  const gate = useWalletGate();
  // An open dialog stays when the offer fills under it (its own take, indexed before the wallet's confirmation arrives).
  if (offer.status !== "open" && !gate.open) return null;
  // The connected wallet's own offer is cancelled, not taken.
  if (gate.wallet?.address === offer.maker && !gate.open) return null;
  return (
    <>
      <button type="button" className={className} onClick={gate.request} data-testid="take-button" data-take-offer={offer.pda}>
        {label}
      </button>
      {gate.open && gate.wallet && (
        <TradeDialog title={offer.side === "sell" ? "Buy from this offer" : "Sell into this offer"} onClose={gate.close}>
          <TakeForm offer={offer} wallet={gate.wallet} onClose={gate.close} />
        </TradeDialog>
      )}
    </>
  );
}

/** The "new offer" entry: on a book the pair is preset, elsewhere the token is typed. */
export function NewOfferButton({ tokenMint, paymentMint }: { tokenMint?: string; paymentMint?: string }) {
  const gate = useWalletGate();
  return (
    <>
      <button type="button" className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent" onClick={gate.request} data-testid="new-offer-button">
        New offer
      </button>
      {gate.open && gate.wallet && (
        <TradeDialog title="New offer" onClose={gate.close}>
          <CreateForm tokenMint={tokenMint} paymentMint={paymentMint} wallet={gate.wallet} onClose={gate.close} />
        </TradeDialog>
      )}
    </>
  );
}

/** Cancel / close / expire for the connected wallet, where the program would accept them; a connect prompt otherwise when `prompt`. */
export function OfferActionsSlot({ offer, prompt = false }: { offer: Offer; prompt?: boolean }) {
  const wallet = useConnectedWallet();
  if (wallet) return <OfferActionButtons offer={offer} wallet={wallet} />;
  if (!prompt) return null;
  return (
    <button type="button" className="text-xs text-accent hover:underline" onClick={requestWalletConnect} data-testid="wallet-connect-prompt">
      Connect a wallet to cancel, close or expire
    </button>
  );
}

/** On the maker's own page (the connected wallet is the maker): cancel all open, close all filled. */
export function MakerBulkSlot({ maker }: { maker: string }) {
  const wallet = useConnectedWallet();
  return wallet && wallet.address === maker ? <MakerBulkActions wallet={wallet} /> : null;
}
