"use client";

import { PublicKey } from "@solana/web3.js";
import { useState } from "react";
import {
  createInstructions,
  derivedEscrowAddress,
  EXPIRY_BOUNTY_LAMPORTS,
  EXPIRY_PRESETS,
  type ExpiryPreset,
  findOfferAddress,
  formatUnits,
  newOfferNonce,
  OFFER_ACCOUNT_SIZE,
  type OfferSide,
  PAYMENT_MINTS,
  previewCreate,
  type CreatePreview,
} from "@/lib/program";
import { unixNow } from "@/client/offer-terms";
import type { ConnectedWallet } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { PaymentMintOptions } from "../ui/payment-mint-options";
import { type ActionPlan, ActionFlow } from "./action-flow";
import { ExactAmount, SummaryRow, useMintSymbol } from "./amounts";
import { type BalanceNeed, connectionFor, isSol, readMints, rentForNewTokenAccounts, SOL, tokenAccountRent, tokenProgramLookup } from "./chain";
import { useMintFacts } from "./use-mints";

const field = "w-full rounded-lg border border-line bg-surface px-3 py-2 text-sm tabular focus-visible:outline-2 focus-visible:outline-accent";

function isAddress(text: string): boolean {
  try {
    return new PublicKey(text).toBase58() === text;
  } catch {
    return false;
  }
}

/**
 * A new offer from human units: size and total give the exact price at its
 * smallest scale (or say none exists), min fill and an expiry preset; the
 * preview is the book line it will make.
 */
export function CreateForm({ tokenMint: fixedToken, paymentMint: initialPayment, wallet, onClose }: { tokenMint?: string; paymentMint?: string; wallet: ConnectedWallet; onClose: () => void }) {
  const config = useAppConfig();
  const [side, setSide] = useState<OfferSide>("sell");
  const [tokenMint, setTokenMint] = useState(fixedToken ?? "");
  const [paymentMint, setPaymentMint] = useState(initialPayment && PAYMENT_MINTS.some((m) => m.address === initialPayment) ? initialPayment : (PAYMENT_MINTS[0]?.address as string));
  const [size, setSize] = useState("");
  const [total, setTotal] = useState("");
  const [minFill, setMinFill] = useState("");
  const [expiry, setExpiry] = useState<ExpiryPreset>("7d");
  const [reviewing, setReviewing] = useState(false);
  const tokenOk = isAddress(tokenMint);
  const { facts, error: mintError } = useMintFacts(tokenOk ? [tokenMint, paymentMint] : []);
  const tokenSymbol = useMintSymbol(tokenOk ? tokenMint : paymentMint);
  const paymentSymbol = useMintSymbol(paymentMint);
  const tokenDecimals = facts?.get(tokenMint)?.decimals;
  const paymentDecimals = facts?.get(paymentMint)?.decimals;

  const ready = tokenDecimals !== undefined && paymentDecimals !== undefined && size.trim() !== "" && total.trim() !== "";
  const preview = ready
    ? previewCreate({ side, tokenMint, tokenDecimals, paymentMint, paymentDecimals, size, total, minFill, expiry, now: unixNow(), nonce: 0n })
    : null;

  async function plan(): Promise<ActionPlan> {
    if (!config.rpcUrl || !config.programId) throw new Error("Trading is not configured on this deployment (RPC URL or program id missing)");
    if (tokenDecimals === undefined || paymentDecimals === undefined) throw new Error("The mints are not known yet");
    const connection = connectionFor(config.rpcUrl);
    const programId = new PublicKey(config.programId);
    const maker = new PublicKey(wallet.address);
    const fresh = previewCreate({ side, tokenMint, tokenDecimals, paymentMint, paymentDecimals, size, total, minFill, expiry, now: unixNow(), nonce: newOfferNonce() });
    if (!fresh.ok) throw new Error(fresh.reason);
    const mints = await readMints(connection, [tokenMint, paymentMint]);
    const tokenProgramOf = tokenProgramLookup(mints);
    const offer = findOfferAddress(programId, maker, fresh.args.nonce).address;
    const escrow = derivedEscrowAddress(offer, tokenProgramOf(new PublicKey(tokenMint)));
    const built = createInstructions({
      programId,
      maker,
      tokenMint: new PublicKey(tokenMint),
      paymentMint: new PublicKey(paymentMint),
      args: fresh.args,
      escrowFor: () => escrow,
      tokenProgramOf,
    });
    const offerRent = BigInt(await connection.getMinimumBalanceForRentExemption(OFFER_ACCOUNT_SIZE));
    const accountsRent = offerRent + (await tokenAccountRent(connection)) + (await rentForNewTokenAccounts(connection, built.instructions));
    const escrowInSol = isSol(fresh.escrow.mint);
    const needs: BalanceNeed[] = [{ ...SOL, amount: accountsRent + EXPIRY_BOUNTY_LAMPORTS + (escrowInSol ? fresh.escrow.amount : 0n) }];
    if (!escrowInSol) {
      const decimals = fresh.escrow.mint === tokenMint ? tokenDecimals : paymentDecimals;
      needs.push({ mint: fresh.escrow.mint, amount: fresh.escrow.amount, decimals, symbol: fresh.escrow.mint === tokenMint ? tokenSymbol : paymentSymbol });
    }
    return {
      payer: maker,
      programId: programId.toBase58(),
      groups: [{ main: built.instructions }],
      needs,
      offers: [offer.toBase58()],
      missingOffer: "pending",
      summary: (
        <>
          <BookLine preview={fresh} tokenDecimals={tokenDecimals} paymentDecimals={paymentDecimals} tokenMint={tokenMint} paymentMint={paymentMint} />
          <p className="text-xs text-muted" data-testid="create-offer-address">
            Offer {offer.toBase58()}; the maker also deposits the {formatUnits(EXPIRY_BOUNTY_LAMPORTS, 9)} SOL expiry bounty (returned on fill or cancel).
          </p>
        </>
      ),
    };
  }

  const disabled = reviewing;
  return (
    <div className="space-y-3 text-sm" data-testid="create-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="space-y-1">
          <span className="text-muted">Side</span>
          <select className={field} value={side} disabled={disabled} onChange={(e) => setSide(e.target.value as OfferSide)} data-testid="create-side">
            <option value="sell">Sell (ask)</option>
            <option value="buy">Buy (bid)</option>
          </select>
        </label>
        <label className="space-y-1">
          <span className="text-muted">Paid in</span>
          <select className={field} value={paymentMint} disabled={disabled} onChange={(e) => setPaymentMint(e.target.value)} data-testid="create-payment-mint">
            <PaymentMintOptions />
          </select>
        </label>
        <label className="space-y-1 sm:col-span-2">
          <span className="text-muted">Token mint</span>
          <input className={`${field} font-mono`} value={tokenMint} disabled={disabled || fixedToken !== undefined} onChange={(e) => setTokenMint(e.target.value.trim())} data-testid="create-token" />
        </label>
        <label className="space-y-1">
          <span className="text-muted">Size ({tokenOk ? tokenSymbol : "tokens"})</span>
          <input className={field} inputMode="decimal" value={size} disabled={disabled} onChange={(e) => setSize(e.target.value)} data-testid="create-size" />
        </label>
        <label className="space-y-1">
          <span className="text-muted">Total ({paymentSymbol})</span>
          <input className={field} inputMode="decimal" value={total} disabled={disabled} onChange={(e) => setTotal(e.target.value)} data-testid="create-total" />
        </label>
        <label className="space-y-1">
          <span className="text-muted">Minimum fill (optional)</span>
          <input className={field} inputMode="decimal" value={minFill} disabled={disabled} onChange={(e) => setMinFill(e.target.value)} data-testid="create-min-fill" />
        </label>
        <label className="space-y-1">
          <span className="text-muted">Expires in</span>
          <select className={field} value={expiry} disabled={disabled} onChange={(e) => setExpiry(e.target.value as ExpiryPreset)} data-testid="create-expiry">
            {EXPIRY_PRESETS.map((p) => (
              <option key={p.label} value={p.label}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div data-testid="create-preview">
        {mintError ? (
          <p className="text-ask">{mintError}</p>
        ) : preview === null ? null : preview.ok ? (
          <BookLine preview={preview} tokenDecimals={tokenDecimals as number} paymentDecimals={paymentDecimals as number} tokenMint={tokenMint} paymentMint={paymentMint} />
        ) : (
          <p className="text-warn" data-testid="create-invalid" data-field={preview.field}>
            {preview.reason}
          </p>
        )}
      </div>
      {reviewing ? (
        <ActionFlow wallet={wallet} plan={plan} confirmLabel="Sign and create" onClose={onClose} />
      ) : (
        <button type="button" className="rounded-lg bg-accent px-4 py-2 font-medium text-on-accent disabled:opacity-50" disabled={!preview?.ok} onClick={() => setReviewing(true)} data-testid="create-review">
          Review offer
        </button>
      )}
    </div>
  );
}

function BookLine({ preview, tokenDecimals, paymentDecimals, tokenMint, paymentMint }: { preview: CreatePreview; tokenDecimals: number; paymentDecimals: number; tokenMint: string; paymentMint: string }) {
  const line = preview.bookLine;
  const paymentSymbol = useMintSymbol(paymentMint);
  return (
    <dl data-testid="create-book-line" data-side={line.side} data-price-per-token={preview.args.pricePerToken.toString()} data-price-scale={preview.args.priceScale}>
      <SummaryRow label={line.side === "sell" ? "Ask at" : "Bid at"}>
        <span className="font-medium tabular" data-testid="create-price">
          {line.humanPrice} {paymentSymbol}
        </span>{" "}
        <span className="text-xs text-muted">
          ({preview.args.pricePerToken.toString()} / 10^{preview.args.priceScale})
        </span>
      </SummaryRow>
      <SummaryRow label="Size">
        <ExactAmount raw={line.size} decimals={tokenDecimals} mint={tokenMint} testId="create-line-size" />
      </SummaryRow>
      <SummaryRow label="Total">
        <ExactAmount raw={line.total} decimals={paymentDecimals} mint={paymentMint} testId="create-line-total" />
      </SummaryRow>
      <SummaryRow label="Minimum fill">
        <ExactAmount raw={line.minFill} decimals={tokenDecimals} mint={tokenMint} />
      </SummaryRow>
      <SummaryRow label="Expires">
        <span data-testid="create-line-expiry">{new Date(Number(line.expiresAt) * 1000).toISOString().replace("T", " ").slice(0, 16)} UTC</span>
      </SummaryRow>
      <SummaryRow label="Escrowed now">
        <ExactAmount raw={preview.escrow.amount} decimals={preview.escrow.mint === tokenMint ? tokenDecimals : paymentDecimals} mint={preview.escrow.mint} testId="create-escrow" />
      </SummaryRow>
    </dl>
  );
}
