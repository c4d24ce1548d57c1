"use client";

import { PublicKey } from "@solana/web3.js";
import { useState } from "react";
import { offerActions } from "@/lib/program";
import { api } from "@/client/api";
import type { OfferStatus } from "@/client/types";
import type { ConnectedWallet } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { type ActionPlan, ActionFlow } from "./action-flow";
import { ExactAmount, SummaryRow } from "./amounts";
import { chainNow, connectionFor, readMints, readOffers, rentForNewTokenAccounts, SOL } from "./chain";
import { offerGroup } from "./offer-plans";

type BulkKind = "cancel" | "close";

const PAGE = 200;
const MAX_PAGES = 25;

async function makerOfferPdas(maker: string, status: OfferStatus): Promise<string[]> {
  const pdas: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await api.makerOffers(maker, { status, limit: PAGE, cursor });
    pdas.push(...list.offers.map((o) => o.pda));
    if (!list.nextCursor) break;
    cursor = list.nextCursor;
  }
  return pdas;
}

/**
 * "Cancel all open" / "close all filled" from the indexer's list of the
 * maker's offers, each checked on chain, packed as many per transaction as fit.
 */
async function bulkPlan(rpcUrl: string, kind: BulkKind, maker: PublicKey): Promise<ActionPlan> {
  const connection = connectionFor(rpcUrl);
  const pdas = await makerOfferPdas(maker.toBase58(), kind === "cancel" ? "open" : "filled");
  const now = await chainNow(connection);
  const chain = [...(await readOffers(connection, pdas)).values()].filter(
    (o): o is NonNullable<typeof o> => o !== null && offerActions(o.account, maker.toBase58(), now)[kind],
  );
  if (chain.length === 0) throw new Error(kind === "cancel" ? "No open offers to cancel" : "No filled offers left to close");
  const mints = await readMints(connection, chain.flatMap((o) => [o.account.tokenMint, o.account.paymentMint]));
  const parts = [];
  for (const offer of chain) parts.push(await offerGroup(rpcUrl, kind, offer, maker, mints));
  const refunds = new Map<string, bigint>();
  for (const { refund } of parts) if (refund) refunds.set(refund.mint, (refunds.get(refund.mint) ?? 0n) + refund.amount);
  const rent = await rentForNewTokenAccounts(connection, parts.flatMap((p) => p.group.setup ?? []));
  return {
    payer: maker,
    programId: (chain[0] as (typeof chain)[number]).programId.toBase58(),
    groups: parts.map((p) => p.group),
    needs: [{ ...SOL, amount: rent }],
    // A close changes nothing the API shows (see singleOfferPlan): nothing to wait for.
    offers: kind === "close" ? [] : chain.map((o) => o.address.toBase58()),
    missingOffer: "done",
    summary: (
      <dl>
        <SummaryRow label={kind === "cancel" ? "Offers to cancel" : "Offers to close"}>
          <span className="font-medium" data-testid="bulk-count">
            {chain.length}
          </span>
        </SummaryRow>
        {[...refunds].map(([mint, amount]) => (
          <SummaryRow key={mint} label="Escrow returned">
            <ExactAmount raw={amount} decimals={mints.get(mint)?.decimals ?? 0} mint={mint} />
          </SummaryRow>
        ))}
        {kind === "close" && (
          <SummaryRow label="Account rent returned">
            <ExactAmount raw={chain.reduce((sum, o) => sum + o.lamports, 0n)} decimals={9} mint={SOL.mint} />
          </SummaryRow>
        )}
      </dl>
    ),
  };
}

const button = "rounded-lg border border-line px-3 py-1.5 text-xs font-medium hover:bg-raised";

/** On the maker's own page: every open offer cancelled, or every filled offer closed, in as few transactions as fit. */
export function MakerBulkActions({ wallet }: { wallet: ConnectedWallet }) {
  const { rpcUrl } = useAppConfig();
  const [active, setActive] = useState<BulkKind | null>(null);
  if (!rpcUrl) return null;
  if (active) {
    return (
      <div className="rounded-lg border border-line p-3" data-testid={`bulk-${active}-flow`}>
        <ActionFlow
          wallet={wallet}
          plan={() => bulkPlan(rpcUrl, active, new PublicKey(wallet.address))}
          confirmLabel={active === "cancel" ? "Cancel all (sign)" : "Close all (sign)"}
          onClose={() => setActive(null)}
        />
      </div>
    );
  }
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className={button} onClick={() => setActive("cancel")} data-testid="cancel-all-open">
        Cancel all open
      </button>
      <button type="button" className={button} onClick={() => setActive("close")} data-testid="close-all-filled">
        Close all filled
      </button>
    </div>
  );
}
