"use client";

import { PublicKey } from "@solana/web3.js";
import { useState } from "react";
import { formatUnits, previewTake, previewTakeRaw, takeBounds, takeInstructions } from "@/lib/program";
import { offerTermsOf, unixNow } from "@/client/offer-terms";
import type { Offer } from "@/client/types";
import type { ConnectedWallet } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { type ActionPlan, ActionFlow } from "./action-flow";
import { ExactAmount, SummaryRow, useMintSymbol } from "./amounts";
import { type BalanceNeed, connectionFor, findEscrow, isSol, readMints, readOffer, rentForNewTokenAccounts, SOL, tokenProgramLookup } from "./chain";
import { useMintFacts } from "./use-mints";

const input = "w-full rounded-lg border border-line bg-surface px-3 py-2 text-sm tabular focus-visible:outline-2 focus-visible:outline-accent";

/**
 * Taking an offer: an amount in whole tokens, bounded by the program's rules,
 * previewed with the program's arithmetic; the take itself is planned from the
 * offer as the chain holds it at that moment.
 */
export function TakeForm({ offer, wallet, onClose }: { offer: Offer; wallet: ConnectedWallet; onClose: () => void }) {
  const config = useAppConfig();
  const { facts, error: mintError } = useMintFacts([offer.tokenMint, offer.paymentMint]);
  const [amount, setAmount] = useState("");
  const [reviewing, setReviewing] = useState(false);
  const tokenSymbol = useMintSymbol(offer.tokenMint);
  const paymentSymbol = useMintSymbol(offer.paymentMint);
  const terms = offerTermsOf(offer);
  const tokenDecimals = facts?.get(offer.tokenMint)?.decimals;
  const paymentDecimals = facts?.get(offer.paymentMint)?.decimals;
  const bounds = takeBounds(terms);

  if (mintError) return <p className="text-sm text-ask" data-testid="action-error">{mintError}</p>;
  if (tokenDecimals === undefined || paymentDecimals === undefined) return <p className="text-sm text-muted">Reading the mints…</p>;

  const preview = amount.trim() === "" ? null : previewTake(terms, amount, tokenDecimals, unixNow());
  const fillAmount = preview?.fillAmount;

  async function plan(): Promise<ActionPlan> {
    if (!config.rpcUrl || !config.treasury) throw new Error("Trading is not configured on this deployment (RPC URL or treasury missing)");
    if (fillAmount === undefined) throw new Error("Enter an amount");
    const connection = connectionFor(config.rpcUrl);
    const chain = await readOffer(connection, offer.pda);
    if (!chain) throw new Error("This offer no longer exists on chain");
    const mints = await readMints(connection, [offer.tokenMint, offer.paymentMint]);
    const tokenProgramOf = tokenProgramLookup(mints);
    const account = chain.account;
    const escrowMint = account.side === "sell" ? account.tokenMint : account.paymentMint;
    const escrow = await findEscrow(connection, chain.address, escrowMint, tokenProgramOf(new PublicKey(account.tokenMint)));
    // The chain's terms decide the amounts; a fill the program refuses still goes to simulation, which says why.
    const checked = previewTakeRaw(account, fillAmount, unixNow());
    const amounts = checked.ok ? checked.amounts : { paymentAmount: 0n, netAmount: 0n, feeAmount: 0n, fillAmount };
    const payer = new PublicKey(wallet.address);
    const instructions = takeInstructions({
      programId: chain.programId,
      treasury: new PublicKey(config.treasury),
      taker: payer,
      offerAddress: chain.address,
      offer: account,
      escrow,
      fillAmount,
      paymentAmount: amounts.paymentAmount,
      tokenProgramOf,
    });
    const rent = await rentForNewTokenAccounts(connection, instructions);
    const needs: BalanceNeed[] = [];
    const paysSol = account.side === "sell" && isSol(account.paymentMint);
    needs.push({ ...SOL, amount: rent + (paysSol ? amounts.paymentAmount : 0n) });
    if (account.side === "sell" && !paysSol) needs.push({ mint: account.paymentMint, amount: amounts.paymentAmount, decimals: paymentDecimals as number, symbol: paymentSymbol });
    if (account.side === "buy") needs.push({ mint: account.tokenMint, amount: fillAmount, decimals: tokenDecimals as number, symbol: tokenSymbol });
    return {
      payer,
      programId: chain.programId.toBase58(),
      groups: [{ main: instructions }],
      needs,
      offers: [offer.pda],
      missingOffer: "done",
      summary: checked.ok ? <TakeSummary preview={checked} tokenDecimals={tokenDecimals as number} paymentDecimals={paymentDecimals as number} /> : null,
    };
  }

  return (
    <div className="space-y-3 text-sm" data-testid="take-form" data-take-offer={offer.pda}>
      <label className="block space-y-1">
        <span className="text-muted">
          Amount of {tokenSymbol} to {offer.side === "sell" ? "buy" : "sell"}{" "}
          {bounds.remainderOnly ? `(only the whole remainder, ${formatUnits(bounds.max, tokenDecimals)})` : `(${formatUnits(bounds.min, tokenDecimals)} to ${formatUnits(bounds.max, tokenDecimals)})`}
        </span>
        <div className="flex gap-2">
          <input className={input} inputMode="decimal" value={amount} disabled={reviewing} onChange={(e) => setAmount(e.target.value)} data-testid="take-amount" aria-label="Amount to take" />
          <button type="button" className="rounded-lg border border-line px-3 text-xs" disabled={reviewing} onClick={() => setAmount(formatUnits(bounds.max, tokenDecimals))} data-testid="take-max">
            All
          </button>
        </div>
      </label>
      <div data-testid="take-preview">
        {preview === null ? null : preview.ok ? (
          <TakeSummary preview={preview} tokenDecimals={tokenDecimals} paymentDecimals={paymentDecimals} />
        ) : (
          <p className="text-warn" data-testid="take-invalid">
            {preview.reason}
          </p>
        )}
      </div>
      {reviewing ? (
        <ActionFlow wallet={wallet} plan={plan} confirmLabel="Sign and take" onClose={onClose} />
      ) : (
        <button
          type="button"
          className="rounded-lg bg-accent px-4 py-2 font-medium text-on-accent disabled:opacity-50"
          disabled={fillAmount === undefined || fillAmount <= 0n}
          onClick={() => setReviewing(true)}
          data-testid="take-review"
        >
          Review take
        </button>
      )}
    </div>
  );
}

function TakeSummary({ preview, tokenDecimals, paymentDecimals }: { preview: Extract<ReturnType<typeof previewTakeRaw>, { ok: true }>; tokenDecimals: number; paymentDecimals: number }) {
  const decimalsOf = (mint: string) => (mint === preview.fee.mint ? paymentDecimals : tokenDecimals);
  return (
    <dl>
      <SummaryRow label="You pay">
        <ExactAmount raw={preview.takerPays.amount} decimals={decimalsOf(preview.takerPays.mint)} mint={preview.takerPays.mint} testId="take-pays" />
      </SummaryRow>
      <SummaryRow label="You receive">
        <ExactAmount raw={preview.takerReceives.amount} decimals={decimalsOf(preview.takerReceives.mint)} mint={preview.takerReceives.mint} testId="take-receives" />
      </SummaryRow>
      <SummaryRow label="Fee (0.2%, rounded up)">
        <ExactAmount raw={preview.fee.amount} decimals={paymentDecimals} mint={preview.fee.mint} testId="take-fee" />
      </SummaryRow>
      <SummaryRow label="Maker receives">
        <ExactAmount raw={preview.makerReceives.amount} decimals={decimalsOf(preview.makerReceives.mint)} mint={preview.makerReceives.mint} testId="take-maker-receives" />
      </SummaryRow>
      {preview.completes && <p className="pt-1 text-xs text-muted">This takes the whole remainder: the offer becomes filled.</p>}
      {preview.leavesDust && <p className="pt-1 text-xs text-warn">This leaves less than the minimum fill; the next taker must take it all.</p>}
    </dl>
  );
}
