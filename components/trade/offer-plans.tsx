"use client";

import { PublicKey } from "@solana/web3.js";
import {
  cancelInstructionGroup,
  closeInstructions,
  escrowMintOf,
  EXPIRY_BOUNTY_LAMPORTS,
  expireInstructions,
  type InstructionGroup,
  type OfferActions,
  offerActions,
} from "@/lib/program";
import type { ActionPlan } from "./action-flow";
import { ExactAmount, SummaryRow } from "./amounts";
import { chainNow, connectionFor, findEscrow, type MintFacts, type OnChainOffer, readMints, readOffer, rentForNewTokenAccounts, SOL, tokenAccountBalance, tokenProgramLookup } from "./chain";

// Plans for the maker's and the cranker's actions on an offer, read from the
// chain at the moment they run.

export type OfferActionKind = "cancel" | "close" | "expire";

const ALLOWED: Record<OfferActionKind, (a: OfferActions) => boolean> = {
  cancel: (a) => a.cancel,
  close: (a) => a.close,
  expire: (a) => a.expire !== null,
};

const REFUSED: Record<OfferActionKind, string> = {
  cancel: "Only the maker can cancel, and only an active offer",
  close: "Only the maker can close, and only an offer that is no longer active",
  expire: "Only an active offer past its expiry can be expired",
};

export interface OfferGroup {
  group: InstructionGroup;
  /** What the escrow refunds (cancel/expire), read from the escrow account. */
  refund: { mint: string; amount: bigint } | null;
}

/** One offer's instructions for `kind`, checked against the program's rules; throws when the program would refuse. */
export async function offerGroup(rpcUrl: string, kind: OfferActionKind, chain: OnChainOffer, caller: PublicKey, mints: Map<string, MintFacts>): Promise<OfferGroup> {
  const connection = connectionFor(rpcUrl);
  if (!ALLOWED[kind](offerActions(chain.account, caller.toBase58(), await chainNow(connection)))) throw new Error(REFUSED[kind]);
  if (kind === "close") return { group: { main: closeInstructions(chain.programId, caller, chain.address) }, refund: null };
  const tokenProgramOf = tokenProgramLookup(mints);
  const escrowMint = escrowMintOf(chain.account);
  const escrow = await findEscrow(connection, chain.address, escrowMint, tokenProgramOf(new PublicKey(chain.account.tokenMint)));
  const refund = { mint: escrowMint, amount: await tokenAccountBalance(connection, escrow) };
  const input = { programId: chain.programId, offerAddress: chain.address, offer: chain.account, escrow, tokenProgramOf };
  const group = kind === "cancel" ? cancelInstructionGroup(input) : { main: expireInstructions({ ...input, cranker: caller }) };
  return { group, refund };
}

/** The plan for one action on one offer: its instructions, the SOL it needs and its exact effects. */
export async function singleOfferPlan(rpcUrl: string, kind: OfferActionKind, pda: string, caller: PublicKey): Promise<ActionPlan> {
  const connection = connectionFor(rpcUrl);
  const chain = await readOffer(connection, pda);
  if (!chain) throw new Error("This offer no longer exists on chain (it was closed)");
  const mints = await readMints(connection, [chain.account.tokenMint, chain.account.paymentMint]);
  const { group, refund } = await offerGroup(rpcUrl, kind, chain, caller, mints);
  const instructions = [...(group.setup ?? []), ...group.main, ...(group.teardown ?? [])];
  const rent = await rentForNewTokenAccounts(connection, instructions);
  const decimals = (mint: string) => mints.get(mint)?.decimals ?? 0;
  return {
    payer: caller,
    programId: chain.programId.toBase58(),
    groups: [group],
    needs: [{ ...SOL, amount: rent }],
    // A close deletes the account but changes nothing the API shows (the row stays as history, lastSlot unmoved): nothing to wait for.
    offers: kind === "close" ? [] : [pda],
    missingOffer: "done",
    summary: (
      <dl>
        {refund && (
          <SummaryRow label="Escrow returned to the maker">
            <ExactAmount raw={refund.amount} decimals={decimals(refund.mint)} mint={refund.mint} testId="action-refund" />
          </SummaryRow>
        )}
        {kind === "expire" && (
          <SummaryRow label="Bounty you earn">
            <ExactAmount raw={EXPIRY_BOUNTY_LAMPORTS} decimals={9} mint={SOL.mint} testId="action-bounty" />
          </SummaryRow>
        )}
        {kind === "cancel" && (
          <SummaryRow label="Expiry bounty returned to you">
            <ExactAmount raw={EXPIRY_BOUNTY_LAMPORTS} decimals={9} mint={SOL.mint} />
          </SummaryRow>
        )}
        {kind === "close" && (
          <SummaryRow label="Account rent returned to you">
            <ExactAmount raw={chain.lamports} decimals={9} mint={SOL.mint} testId="action-rent" />
          </SummaryRow>
        )}
      </dl>
    ),
  };
}
