"use client";

import { useQueryClient } from "@tanstack/react-query";
import type { PublicKey } from "@solana/web3.js";
import Link from "next/link";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { formatUnits, type InstructionGroup } from "@/lib/program";
import { explorerUrl } from "@/client/explorer";
import type { ConnectedWallet } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { invalidateBalances } from "../wallet/use-balances";
import { type BalanceNeed, checkBalances, connectionFor, SOL } from "./chain";
import { offersIndexedSince } from "./indexed";
import { prepareTransactions, type PreparedTransactions, sendPrepared } from "./run-action";

/** What an action will do, built from the chain right before it runs. */
export interface ActionPlan {
  payer: PublicKey;
  programId: string;
  groups: InstructionGroup[];
  /** Balances the wallet must hold, fees aside (added here). */
  needs: BalanceNeed[];
  /** The exact amounts, shown at the confirm step. */
  summary: ReactNode;
  /** Offers the action changes, followed in the indexer until it shows the change. */
  offers: string[];
  /** A new offer does not exist in the indexer until it is indexed; a closed one may vanish. */
  missingOffer: "done" | "pending";
}

type Step =
  | { kind: "checking" }
  | { kind: "refused"; reason: string; testId: "action-balance-error" | "action-simulate-error" | "action-error" }
  | { kind: "confirm"; plan: ActionPlan; prepared: PreparedTransactions }
  | { kind: "sending"; signatures: string[] }
  | { kind: "done"; signatures: string[]; slot: number; indexed: boolean; newOffers: string[] }
  | { kind: "failed"; signatures: string[]; reason: string };

/** A fee's worth of SOL per transaction for the balance check before simulation knows the exact fee. */
const FEE_ALLOWANCE_LAMPORTS = 50_000n;
const INDEX_POLL_MS = 1_500;
const INDEX_WAIT_MS = 120_000;

function addSolNeed(needs: BalanceNeed[], lamports: bigint): BalanceNeed[] {
  const sol = needs.find((n) => n.mint === "SOL");
  const rest = needs.filter((n) => n.mint !== "SOL");
  return [{ ...SOL, amount: (sol?.amount ?? 0n) + lamports }, ...rest];
}

function TxLinks({ signatures }: { signatures: string[] }) {
  const config = useAppConfig();
  return (
    <ul className="space-y-1">
      {signatures.map((s) => (
        <li key={s}>
          {/* A short signature and where the link goes; the full one is in the link's title and address. */}
          <a href={explorerUrl(config, "tx", s)} target="_blank" rel="noreferrer" className="text-xs text-accent hover:underline" title={s} data-testid="tx-link" data-signature={s}>
            Transaction <span className="font-mono">{s.slice(0, 6)}…{s.slice(-6)}</span> on Solana Explorer ↗
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * One action from balance check to the indexer: checks balances, simulates
 * (a failure shows the program's reason and sends nothing), asks for an
 * explicit confirm with the exact amounts, sends through the wallet, follows
 * the signatures to `confirmed`, then marks the change pending until the
 * indexer shows it. Nothing on the page changes ahead of the indexer.
 */
export function ActionFlow({ wallet, plan, confirmLabel, onClose }: { wallet: ConnectedWallet; plan: () => Promise<ActionPlan>; confirmLabel: string; onClose: () => void }) {
  const { rpcUrl } = useAppConfig();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: "checking" });
  const planRef = useRef(plan);
  const confirmedPlan = useRef<ActionPlan | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      if (!rpcUrl) throw new Error("This deployment has no Solana RPC configured");
      const connection = connectionFor(rpcUrl);
      const p = await planRef.current();
      const shortfall = await checkBalances(connection, p.payer, addSolNeed(p.needs, FEE_ALLOWANCE_LAMPORTS));
      if (shortfall) return live && setStep({ kind: "refused", reason: shortfall, testId: "action-balance-error" });
      const result = await prepareTransactions(connection, p.payer, p.programId, p.groups);
      if (!live) return;
      if (!result.ok) setStep({ kind: "refused", reason: result.error, testId: "action-simulate-error" });
      else setStep({ kind: "confirm", plan: p, prepared: result.prepared });
    })().catch((e: unknown) => live && setStep({ kind: "refused", reason: e instanceof Error ? e.message : String(e), testId: "action-error" }));
    return () => {
      live = false;
    };
  }, [rpcUrl]);

  useEffect(() => {
    const planned = confirmedPlan.current;
    if (step.kind !== "done" || step.indexed || !planned) return;
    const done = step;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > INDEX_WAIT_MS) return clearInterval(timer);
      void offersIndexedSince(planned.offers, done.slot, planned.missingOffer).then((indexed) => {
        if (!indexed) return;
        clearInterval(timer);
        void queryClient.invalidateQueries();
        setStep({ ...done, indexed: true });
      });
    }, INDEX_POLL_MS);
    return () => clearInterval(timer);
  }, [step, queryClient]);

  async function confirm(p: ActionPlan, prepared: PreparedTransactions) {
    if (!rpcUrl) return;
    confirmedPlan.current = p;
    const signatures: string[] = [];
    setStep({ kind: "sending", signatures });
    try {
      const slot = await sendPrepared(connectionFor(rpcUrl), wallet, prepared, (s) => {
        signatures.push(s);
        setStep({ kind: "sending", signatures: [...signatures] });
      });
      setStep({ kind: "done", signatures, slot, indexed: false, newOffers: p.missingOffer === "pending" ? p.offers : [] });
      // The chain has the new balances now; the indexer's view follows (below).
      void invalidateBalances(queryClient);
    } catch (e) {
      setStep({ kind: "failed", signatures, reason: e instanceof Error ? e.message : String(e) });
    }
  }

  let body: ReactNode;
  switch (step.kind) {
    case "checking":
      body = <p data-testid="action-status">Checking balances and simulating…</p>;
      break;
    case "refused":
      body = (
        <p role="alert" className="rounded-lg border border-ask/40 bg-ask/10 px-3 py-2 text-ask" data-testid={step.testId}>
          {step.reason}. Nothing was sent.
        </p>
      );
      break;
    case "confirm":
      body = (
        <div className="space-y-3" data-testid="confirm-summary">
          {step.plan.summary}
          <p className="text-xs text-muted" data-testid="confirm-fee">
            {step.prepared.transactions.length > 1 ? `${step.prepared.transactions.length} transactions, ` : ""}network fee about {formatUnits(step.prepared.feeLamports, 9)} SOL. The simulation succeeded.
          </p>
          <button type="button" className="rounded-lg bg-accent px-4 py-2 text-sm font-medium text-on-accent" data-testid="confirm-button" onClick={() => void confirm(step.plan, step.prepared)}>
            {confirmLabel}
          </button>
        </div>
      );
      break;
    case "sending":
      body = (
        <div data-testid="action-status">
          <p>{step.signatures.length === 0 ? "Waiting for the wallet to sign…" : "Sent; waiting for confirmation…"}</p>
          <TxLinks signatures={step.signatures} />
        </div>
      );
      break;
    case "done":
      body = (
        <div className="space-y-2" data-testid="tx-result" data-status="confirmed">
          <p className="font-medium text-bid" role="status">
            Confirmed.
          </p>
          <TxLinks signatures={step.signatures} />
          {step.newOffers.map((pda) => (
            <p key={pda}>
              <Link href={`/offers/${pda}`} className="text-xs text-accent hover:underline" data-testid="new-offer-link">
                Open the new offer <span className="font-mono">{pda.slice(0, 4)}…{pda.slice(-4)}</span>
              </Link>
            </p>
          ))}
          {step.indexed ? (
            <p className="text-xs text-muted" data-testid="tx-indexed">The explorer shows the change.</p>
          ) : (
            <p className="text-xs text-warn" data-testid="tx-pending">Pending: waiting for the indexer to show the change…</p>
          )}
        </div>
      );
      break;
    case "failed":
      body = (
        <div className="space-y-2" data-testid="tx-result" data-status="failed">
          <p role="alert" className="text-ask" data-testid="action-error">
            {step.reason}
          </p>
          <TxLinks signatures={step.signatures} />
        </div>
      );
      break;
  }
  return (
    <div className="space-y-3 text-sm" data-testid="action-flow">
      {body}
      <button type="button" className="rounded-lg border border-line px-3 py-1.5 text-xs font-medium hover:bg-raised" data-testid="action-dismiss" onClick={onClose}>
        {/* Never "Cancel": beside "Cancel offer (sign)" it would read as the action itself. */}
        {step.kind === "done" || step.kind === "failed" ? "Close" : step.kind === "sending" ? "Close (what was sent may still land)" : "Back, send nothing"}
      </button>
    </div>
  );
}
