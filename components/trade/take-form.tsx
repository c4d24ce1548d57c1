"use client";

import { PublicKey } from "@solana/web3.js";
import { useId, useState } from "react";
import { fillForPayment, formatUnits, humanPrice, parseUnits, previewTake, previewTakeRaw, takeAmounts, type TakeTerms, takeBounds, takeInstructions } from "@/lib/program";
import { offerTermsOf, unixNow } from "@/client/offer-terms";
import type { Offer } from "@/client/types";
import type { ConnectedWallet } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { type ActionPlan, ActionFlow } from "./action-flow";
import { ExactAmount, SummaryRow, useMintSymbol } from "./amounts";
import { type BalanceNeed, connectionFor, findEscrow, isSol, readMints, readOffer, rentForNewTokenAccounts, SOL, tokenProgramLookup } from "./chain";
import { spendable, useWalletBalances } from "../wallet/use-balances";
import { BalanceLine, Segmented } from "./form-parts";
import { useMintFacts } from "./use-mints";
import { MintRiskNote } from "../ui/mint-risk-note";

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
  const [mode, setMode] = useState<"token" | "payment">("token");
  const reasonId = useId();
  const { data: balances } = useWalletBalances(wallet.address);
  const [reviewing, setReviewing] = useState(false);
  const tokenSymbol = useMintSymbol(offer.tokenMint);
  const paymentSymbol = useMintSymbol(offer.paymentMint);
  const terms = offerTermsOf(offer);
  const tokenDecimals = facts?.get(offer.tokenMint)?.decimals;
  const paymentDecimals = facts?.get(offer.paymentMint)?.decimals;
  const bounds = takeBounds(terms);

  if (mintError) return <p className="text-sm text-ask" data-testid="action-error">{mintError}</p>;
  if (tokenDecimals === undefined || paymentDecimals === undefined) return <p className="text-sm text-muted">Reading the mints…</p>;

  const preview = amount.trim() === "" ? null : mode === "token" ? previewTake(terms, amount, tokenDecimals, unixNow()) : previewByPayment(terms, amount, paymentDecimals, unixNow());
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

  const counted = offer.side === "sell" ? "gross" : "net";
  const fillFromPayment = (raw: bigint) => fillForPayment({ pricePerToken: terms.pricePerToken, priceScale: terms.priceScale, remaining: terms.remainingSize }, raw, counted);
  // What the taker hands over: the payment for a sell offer, the tokens for a buy offer.
  const givesMint = offer.side === "sell" ? offer.paymentMint : offer.tokenMint;
  const givesDecimals = offer.side === "sell" ? paymentDecimals : tokenDecimals;
  const held = spendable(balances, givesMint);
  const short = preview?.ok && held !== null && held < preview.takerPays.amount;
  const reason = preview === null ? null : !preview.ok ? preview.reason : short ? `Not enough ${offer.side === "sell" ? paymentSymbol : tokenSymbol}: this take needs ${formatUnits(preview.takerPays.amount, givesDecimals)}, the wallet holds ${formatUnits(held, givesDecimals)}` : null;

  function setMax(raw: bigint) {
    const fill = offer.side === "sell" ? fillFromPayment(raw) : raw < bounds.max ? raw : bounds.max;
    setMode("token");
    setAmount(formatUnits(fill, tokenDecimals as number));
  }

  return (
    <div className="space-y-3 text-sm" data-testid="take-form" data-take-offer={offer.pda}>
      <MintRiskNote mint={offer.tokenMint} />
      <dl>
        <SummaryRow label="Price">
          <span className="font-medium tabular" data-testid="take-price">
            {humanPrice(terms.pricePerToken, terms.priceScale, tokenDecimals, paymentDecimals)} {paymentSymbol} per {tokenSymbol}
          </span>
        </SummaryRow>
        <SummaryRow label="Available">
          <ExactAmount raw={terms.remainingSize} decimals={tokenDecimals} mint={offer.tokenMint} testId="take-remaining" />
        </SummaryRow>
        <SummaryRow label="Minimum fill">
          {bounds.remainderOnly ? <span>the whole remainder</span> : <ExactAmount raw={bounds.min} decimals={tokenDecimals} mint={offer.tokenMint} testId="take-min" />}
        </SummaryRow>
      </dl>
      <Segmented
        legend="Enter the amount in"
        value={mode}
        disabled={reviewing}
        onChange={(m) => {
          setMode(m);
          setAmount("");
        }}
        testId="take-mode"
        options={[
          { value: "token", label: tokenSymbol },
          { value: "payment", label: `${paymentSymbol} ${offer.side === "sell" ? "to pay" : "to receive"}` },
        ]}
      />
      <label className="block space-y-1">
        <span className="text-muted">
          {mode === "token"
            ? `Amount of ${tokenSymbol} to ${offer.side === "sell" ? "buy" : "sell"}`
            : `${paymentSymbol} to ${offer.side === "sell" ? "pay (fee included)" : "receive (after the fee)"}`}{" "}
          {mode === "token" && (bounds.remainderOnly ? `(only the whole remainder, ${formatUnits(bounds.max, tokenDecimals)})` : `(${formatUnits(bounds.min, tokenDecimals)} to ${formatUnits(bounds.max, tokenDecimals)})`)}
        </span>
        <div className="flex gap-2">
          <input
            className={input}
            inputMode="decimal"
            value={amount}
            disabled={reviewing}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={reason !== null}
            aria-describedby={reason ? reasonId : undefined}
            data-testid={mode === "token" ? "take-amount" : "take-payment"}
          />
          <button
            type="button"
            className="rounded-lg border border-line px-3 text-xs"
            disabled={reviewing}
            onClick={() => {
              setMode("token");
              setAmount(formatUnits(bounds.max, tokenDecimals));
            }}
            data-testid="take-max"
          >
            All
          </button>
        </div>
      </label>
      <BalanceLine owner={wallet.address} mint={givesMint} decimals={givesDecimals} symbol={offer.side === "sell" ? paymentSymbol : tokenSymbol} onMax={setMax} disabled={reviewing} />
      <div data-testid="take-preview">
        {mode === "payment" && fillAmount !== undefined && (
          <p className="text-xs text-muted" data-testid="take-fill-from-payment" data-raw={fillAmount.toString()}>
            = {formatUnits(fillAmount, tokenDecimals)} {tokenSymbol}, the largest fill within that amount
          </p>
        )}
        {preview?.ok && !reviewing && <TakeSummary preview={preview} tokenDecimals={tokenDecimals} paymentDecimals={paymentDecimals} />}
        {reason && (
          <p id={reasonId} role="status" className="text-warn" data-testid="take-invalid">
            {reason}
          </p>
        )}
      </div>
      {reviewing ? (
        <ActionFlow wallet={wallet} plan={plan} confirmLabel={offer.side === "sell" ? "Buy (sign)" : "Sell (sign)"} onClose={onClose} />
      ) : (
        <button
          type="button"
          className="rounded-lg bg-accent px-4 py-2 font-medium text-on-accent disabled:opacity-50"
          disabled={!preview?.ok || reason !== null}
          aria-describedby={reason ? reasonId : undefined}
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

/**
 * A take typed in the payment mint: the largest fill whose payment (the gross
 * a buyer pays, the net a seller receives) stays within the amount, then the
 * program's checks on that fill.
 */
function previewByPayment(terms: TakeTerms, text: string, paymentDecimals: number, now: bigint): ReturnType<typeof previewTakeRaw> {
  let payment: bigint;
  try {
    payment = parseUnits(text, paymentDecimals);
  } catch {
    return { ok: false, reason: `Enter a number with at most ${paymentDecimals} decimals` };
  }
  const counted = terms.side === "sell" ? "gross" : "net";
  const fill = fillForPayment({ pricePerToken: terms.pricePerToken, priceScale: terms.priceScale, remaining: terms.remainingSize }, payment, counted);
  const bounds = takeBounds(terms);
  const whole = takeAmounts(terms.remainingSize, terms.pricePerToken, terms.priceScale);
  const wholePayment = counted === "gross" ? whole.paymentAmount : whole.netAmount;
  if (payment > wholePayment) {
    return { ok: false, reason: `More than the offer's remainder: the whole remainder comes to ${formatUnits(wholePayment, paymentDecimals)}; enter at most that`, fillAmount: fill };
  }
  if (fill < bounds.min) return { ok: false, reason: `This buys less than the minimum fill (${bounds.remainderOnly ? "only the whole remainder can be taken" : "enter a larger amount"})`, fillAmount: fill };
  return previewTakeRaw(terms, fill, now);
}
