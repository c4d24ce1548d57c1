"use client";

import { PublicKey } from "@solana/web3.js";
import { useEffect, useState } from "react";
import { formatUnits, type OfferActions, offerActions } from "@/lib/program";
import type { Offer } from "@/client/types";
import type { ConnectedWallet } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { ActionFlow } from "./action-flow";
import { chainNow, connectionFor, readOffer } from "./chain";
import { type OfferActionKind, singleOfferPlan } from "./offer-plans";

const button = "rounded-lg border border-line px-3 py-1.5 text-xs font-medium hover:bg-raised";

/**
 * Cancel, close and expire for the connected wallet, offered only when the
 * program would accept them: decided from the offer account on chain (the API
 * cannot tell a lapsed offer from a cranked one), re-read whenever the indexer
 * reports a change to the offer.
 */
export function OfferActionButtons({ offer, wallet }: { offer: Offer; wallet: ConnectedWallet }) {
  const { rpcUrl } = useAppConfig();
  const [actions, setActions] = useState<OfferActions | "gone" | null>(null);
  const [active, setActive] = useState<OfferActionKind | null>(null);

  useEffect(() => {
    if (!rpcUrl) return;
    let live = true;
    const connection = connectionFor(rpcUrl);
    Promise.all([readOffer(connection, offer.pda), chainNow(connection)])
      .then(([chain, now]) => live && setActions(chain ? offerActions(chain.account, wallet.address, now) : "gone"))
      .catch(() => live && setActions(null));
    return () => {
      live = false;
    };
  }, [rpcUrl, offer.pda, offer.lastSlot, offer.status, wallet.address]);

  if (!rpcUrl || actions === null) return null;
  if (active) {
    const label = { cancel: "Cancel offer (sign)", close: "Close offer (sign)", expire: "Expire offer (sign)" }[active];
    return (
      <div className="min-w-64 rounded-lg border border-line p-3 text-left" data-testid={`action-${active}-flow`}>
        <ActionFlow wallet={wallet} plan={() => singleOfferPlan(rpcUrl, active, offer.pda, new PublicKey(wallet.address))} confirmLabel={label} onClose={() => setActive(null)} />
      </div>
    );
  }
  // After the running flow: its own close makes the account gone, and the flow must stay to show the result.
  if (actions === "gone") return <span className="text-xs text-muted" data-testid="offer-closed">Closed on chain</span>;
  return (
    <div className="flex flex-wrap gap-2" data-testid="offer-actions">
      {actions.cancel && (
        <button type="button" className={button} onClick={() => setActive("cancel")} data-testid="action-cancel">
          Cancel offer
        </button>
      )}
      {actions.close && (
        <button type="button" className={button} onClick={() => setActive("close")} data-testid="action-close">
          Close offer
        </button>
      )}
      {actions.expire && (
        <button type="button" className={button} onClick={() => setActive("expire")} data-testid="action-expire">
          Expire and earn <span data-testid="expire-bounty">{formatUnits(actions.expire.bountyLamports, 9)} SOL</span>
        </button>
      )}
    </div>
  );
}
