"use client";

import { PublicKey } from "@solana/web3.js";
import { useId, useState } from "react";
import { EXPIRY_PRESETS, type ExpiryPreset, formatUnits, type OfferSide, previewCreate, priceOrder } from "@/lib/program";
import { unixNow } from "@/client/offer-terms";
import type { ConnectedWallet } from "@/client/wallet-session";
import { useAppConfig } from "../data/app-config";
import { paymentMintChoices, paymentMintLabel } from "../ui/payment-mint-options";
import { spendable, useWalletBalances } from "../wallet/use-balances";
import { ActionFlow } from "./action-flow";
import { useMintSymbol } from "./amounts";
import { CreateBookLine } from "./create-book-line";
import { createOfferPlan } from "./create-plan";
import { BalanceLine, fieldClass, Segmented, VersusBest } from "./form-parts";
import { TokenPicker } from "./token-picker";
import { useMintFacts } from "./use-mints";
import { MintRiskNote } from "../ui/mint-risk-note";

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
type Mode = "amount" | "total";

/**
 * A new offer as traders enter one: side, price and amount (or the total to
 * spend or receive). The price moves to the nearest exact price the program
 * accepts for that size (lib/program/price-entry), shown beside what was
 * typed; every check runs as you type and Review stays disabled, with the
 * reason, until the offer would pass create_offer and the wallet holds what
 * it escrows.
 */
export function CreateForm({ tokenMint: fixedToken, paymentMint: initialPayment, wallet, onClose }: { tokenMint?: string; paymentMint?: string; wallet: ConnectedWallet; onClose: () => void }) {
  const config = useAppConfig();
  const choices = paymentMintChoices(config.cluster, initialPayment);
  const [side, setSide] = useState<OfferSide>("sell");
  const [tokenMint, setTokenMint] = useState(fixedToken ?? "");
  const [paymentMint, setPaymentMint] = useState(choices.some((m) => m.address === initialPayment) ? (initialPayment as string) : (choices[0]?.address as string));
  const [price, setPrice] = useState("");
  const [mode, setMode] = useState<Mode>("amount");
  const [quantity, setQuantity] = useState("");
  const [minFill, setMinFill] = useState("");
  const [expiry, setExpiry] = useState<ExpiryPreset>("7d");
  const [reviewing, setReviewing] = useState(false);
  const reasonId = useId();
  const tokenOk = BASE58_ADDRESS.test(tokenMint);
  const { facts, error: mintError } = useMintFacts(tokenOk ? [tokenMint, paymentMint] : []);
  const tokenSymbol = useMintSymbol(tokenOk ? tokenMint : paymentMint);
  const paymentSymbol = useMintSymbol(paymentMint);
  const { data: balances } = useWalletBalances(wallet.address);
  const tokenDecimals = facts?.get(tokenMint)?.decimals;
  const paymentDecimals = facts?.get(paymentMint)?.decimals;
  const known = tokenDecimals !== undefined && paymentDecimals !== undefined;

  const order = known ? priceOrder({ price, mode, quantity, tokenDecimals, paymentDecimals }) : null;
  const input =
    order?.ok && known
      ? { side, tokenMint, tokenDecimals, paymentMint, paymentDecimals, size: formatUnits(order.size, tokenDecimals), total: formatUnits(order.total, paymentDecimals), minFill, expiry, now: unixNow() }
      : null;
  const preview = input ? previewCreate({ ...input, nonce: 0n }) : null;
  const escrowHeld = preview?.ok ? spendable(balances, preview.escrow.mint) : null;
  const escrowSymbol = side === "sell" ? tokenSymbol : paymentSymbol;

  const reason = !tokenOk
    ? "Choose the token to trade"
    : mintError
      ? mintError
      : !known
        ? "Reading the mints…"
        : order && !order.ok
          ? order.reason
          : preview && !preview.ok
            ? preview.reason
            : preview?.ok && escrowHeld !== null && escrowHeld < preview.escrow.amount
              ? `Not enough ${escrowSymbol}: this offer escrows ${formatUnits(preview.escrow.amount, side === "sell" ? (tokenDecimals as number) : (paymentDecimals as number))}, the wallet holds ${formatUnits(escrowHeld, side === "sell" ? (tokenDecimals as number) : (paymentDecimals as number))}`
              : null;
  const invalidField = order && !order.ok ? order.field : preview && !preview.ok ? (preview.field === "minFill" ? "minFill" : "amount") : null;
  const typedSomething = price.trim() !== "" || quantity.trim() !== "";

  function setMax(raw: bigint) {
    if (tokenDecimals === undefined || paymentDecimals === undefined) return;
    if (side === "sell") {
      setMode("amount");
      setQuantity(formatUnits(raw, tokenDecimals));
    } else {
      setMode("total");
      setQuantity(formatUnits(raw, paymentDecimals));
    }
  }

  const disabled = reviewing;
  const quantityLabel = mode === "amount" ? `Amount (${tokenOk ? tokenSymbol : "tokens"})` : `${side === "buy" ? "Spend" : "Receive"} (${paymentSymbol})`;
  return (
    <div className="space-y-3 text-sm" data-testid="create-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <Segmented
          legend="Side"
          value={side}
          disabled={disabled}
          onChange={setSide}
          testId="create-side"
          options={[
            { value: "buy", label: "Buy (bid)", tone: "bid" },
            { value: "sell", label: "Sell (ask)", tone: "ask" },
          ]}
        />
        <label className="space-y-1">
          <span className="text-muted">Paid in</span>
          <select className={fieldClass} value={paymentMint} disabled={disabled} onChange={(e) => setPaymentMint(e.target.value)} data-testid="create-payment-mint">
            {choices.map((m) => (
              <option key={m.address} value={m.address}>
                {paymentMintLabel(m)} · {m.name}
              </option>
            ))}
          </select>
        </label>
        <div className="space-y-1 sm:col-span-2">
          <span className="text-muted" aria-hidden>
            Token
          </span>
          {fixedToken !== undefined ? (
            <p className="rounded-lg border border-line px-3 py-2 font-medium" data-testid="create-token" data-mint={fixedToken}>
              {tokenSymbol} <span className="font-mono text-xs text-muted">{fixedToken}</span>
            </p>
          ) : (
            <TokenPicker label="Token" value={tokenMint} onChange={setTokenMint} disabled={disabled} />
          )}
          {tokenOk && <MintRiskNote mint={tokenMint} />}
        </div>
        <label className="space-y-1 sm:col-span-2">
          <span className="text-muted">
            Price ({paymentSymbol} per {tokenOk ? tokenSymbol : "token"})
          </span>
          <input
            className={fieldClass}
            inputMode="decimal"
            value={price}
            disabled={disabled}
            onChange={(e) => setPrice(e.target.value)}
            aria-invalid={typedSomething && invalidField === "price"}
            data-testid="create-price-input"
          />
        </label>
        <div className="space-y-1 sm:col-span-2">
          <Segmented
            legend="Enter"
            value={mode}
            disabled={disabled}
            onChange={(m) => {
              setMode(m);
              setQuantity("");
            }}
            testId="create-mode"
            options={[
              { value: "amount", label: `Amount of ${tokenOk ? tokenSymbol : "token"}` },
              { value: "total", label: `${side === "buy" ? "Spend" : "Receive"} ${paymentSymbol}` },
            ]}
          />
          <label className="block space-y-1">
            <span className="text-muted">{quantityLabel}</span>
            <input
              className={fieldClass}
              inputMode="decimal"
              value={quantity}
              disabled={disabled}
              onChange={(e) => setQuantity(e.target.value)}
              aria-invalid={typedSomething && invalidField === "amount"}
              data-testid={mode === "amount" ? "create-size" : "create-total"}
            />
          </label>
          {tokenOk && known && (
            <BalanceLine
              owner={wallet.address}
              mint={side === "sell" ? tokenMint : paymentMint}
              decimals={side === "sell" ? tokenDecimals : paymentDecimals}
              symbol={side === "sell" ? tokenSymbol : paymentSymbol}
              onMax={setMax}
              disabled={disabled}
            />
          )}
        </div>
        <label className="space-y-1">
          <span className="text-muted">Minimum fill (optional, {tokenOk ? tokenSymbol : "tokens"})</span>
          <input className={fieldClass} inputMode="decimal" value={minFill} disabled={disabled} onChange={(e) => setMinFill(e.target.value)} aria-invalid={invalidField === "minFill"} data-testid="create-min-fill" />
        </label>
        <label className="space-y-1">
          <span className="text-muted">Expires in</span>
          <select className={fieldClass} value={expiry} disabled={disabled} onChange={(e) => setExpiry(e.target.value as ExpiryPreset)} data-testid="create-expiry">
            {EXPIRY_PRESETS.map((p) => (
              <option key={p.label} value={p.label}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div data-testid="create-preview" className="space-y-2">
        {order?.ok && (
          <p className="text-xs" data-testid="create-exact-price" data-adjusted={order.adjusted} data-price={order.humanPrice}>
            {order.adjusted ? (
              <>
                <span className="text-warn">Nearest exact price for this size: </span>
                <span className="font-medium tabular">
                  {order.humanPrice} {paymentSymbol}
                </span>{" "}
                <span className="text-muted">(you typed {price.trim()}; the program needs size × price to be a whole number of {paymentSymbol} units)</span>
              </>
            ) : (
              <span className="text-muted">The price is exact as typed.</span>
            )}
            {order.sizeAdjusted && (
              <span className="block text-warn" data-testid="create-size-adjusted">
                Amount rounded to {formatUnits(order.size, tokenDecimals as number)} {tokenSymbol}, which allows a price this close.
              </span>
            )}
          </p>
        )}
        {order?.ok && <VersusBest price={order.price} side={side} tokenMint={tokenMint} paymentMint={paymentMint} />}
        {preview?.ok && !reviewing && <CreateBookLine preview={preview} tokenDecimals={tokenDecimals as number} paymentDecimals={paymentDecimals as number} tokenMint={tokenMint} paymentMint={paymentMint} />}
      </div>
      {reviewing && input ? (
        <ActionFlow
          wallet={wallet}
          plan={() => createOfferPlan(config, new PublicKey(wallet.address), input, { token: tokenSymbol, payment: paymentSymbol })}
          confirmLabel="Create offer (sign)"
          onClose={onClose}
        />
      ) : (
        <div className="space-y-1">
          {reason && (typedSomething || !tokenOk || mintError) && (
            <p id={reasonId} className={mintError ? "text-ask" : "text-warn"} role="status" data-testid="create-invalid" data-field={invalidField ?? undefined}>
              {reason}
            </p>
          )}
          <button
            type="button"
            className="rounded-lg bg-accent px-4 py-2 font-medium text-on-accent disabled:opacity-50"
            disabled={reason !== null || !preview?.ok}
            aria-describedby={reason ? reasonId : undefined}
            onClick={() => setReviewing(true)}
            data-testid="create-review"
          >
            Review offer
          </button>
        </div>
      )}
    </div>
  );
}
